package tftimeouts

import (
	"context"
	"strings"
	"testing"
	"time"

	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

func validate(v validator.String, value types.String) validator.StringResponse {
	var resp validator.StringResponse
	req := validator.StringRequest{Path: path.Root("timeouts").AtName("read"), ConfigValue: value}
	v.ValidateString(context.Background(), req, &resp)
	return resp
}

func TestPositiveRefusesZeroAndNegative(t *testing.T) {
	v := Positive("read", 5*time.Minute)
	for _, bad := range []string{"0s", "0", "-5m"} {
		resp := validate(v, types.StringValue(bad))
		if !resp.Diagnostics.HasError() {
			t.Errorf("%q accepted", bad)
			continue
		}
		d := resp.Diagnostics.Errors()[0]
		for _, want := range []string{`timeouts.read = "` + bad + `"`, "positive", `"10m"`, "remove read to use the default (5m)"} {
			if !strings.Contains(d.Detail(), want) {
				t.Errorf("%q: detail %q does not say %q", bad, d.Detail(), want)
			}
		}
	}
	for _, ok := range []types.String{types.StringValue("1s"), types.StringValue("2h45m"), types.StringNull(), types.StringUnknown(), types.StringValue("soon")} {
		if resp := validate(v, ok); resp.Diagnostics.HasError() {
			t.Errorf("%s refused: %v", ok, resp.Diagnostics)
		}
	}
}

// TestBlocksCarryTheCheckAndTheDefaults: every attribute of both blocks
// refuses a non-positive duration and names its default.
func TestBlocksCarryTheCheckAndTheDefaults(t *testing.T) {
	ctx := context.Background()
	r := Resource(ctx,
		Op{Name: "create", Default: 10 * time.Minute, What: "the create may take"},
		Op{Name: "read", Default: 2 * time.Minute, What: "a refresh may take"},
	).(rschema.SingleNestedBlock)
	if len(r.Attributes) != 2 {
		t.Fatalf("resource block attributes %v, want create and read", r.Attributes)
	}
	attrs := map[string][]validator.String{}
	descs := map[string]string{}
	for name, a := range r.Attributes {
		attrs["resource "+name] = a.(rschema.StringAttribute).Validators
		descs["resource "+name] = a.GetMarkdownDescription()
	}
	d := DataSource(ctx, Op{Default: 3 * time.Minute, What: "the read may take"}).(dschema.SingleNestedBlock)
	for name, a := range d.Attributes {
		attrs["data source "+name] = a.(dschema.StringAttribute).Validators
		descs["data source "+name] = a.GetMarkdownDescription()
	}
	want := map[string]string{"resource create": "`10m`", "resource read": "`2m`", "data source read": "`3m`"}
	for key, vs := range attrs {
		refused := false
		for _, v := range vs {
			if validate(v, types.StringValue("-5m")).Diagnostics.HasError() {
				refused = true
			}
		}
		if !refused {
			t.Errorf("%s accepts -5m", key)
		}
		if !strings.Contains(descs[key], "Defaults to "+want[key]) {
			t.Errorf("%s: description %q does not give the default %s", key, descs[key], want[key])
		}
	}
	if len(attrs) != 3 {
		t.Errorf("attributes %v", attrs)
	}
}

func TestShort(t *testing.T) {
	for d, want := range map[time.Duration]string{10 * time.Minute: "10m", 90 * time.Second: "90s", 2 * time.Hour: "2h", 1500 * time.Millisecond: "1.5s"} {
		if got := Short(d); got != want {
			t.Errorf("Short(%s) = %q, want %q", d, got, want)
		}
	}
}
