package tfvalidate

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestAccounts: an empty list, an empty id and a repeated id are refused on
// the element at fault, the repeated one shown redacted; unknown ids pass.
func TestAccounts(t *testing.T) {
	const secret = "SENTINEL-pasted-token-31415"
	check := Accounts{Summary: "Invalid compute_things argument", What: "things"}
	list := func(vs ...attr.Value) types.List { return types.ListValueMust(types.StringType, vs) }
	id := "kind:token=" + secret
	for _, c := range []struct {
		name  string
		value types.List
		at    path.Path
		want  string
	}{
		{"empty", list(), path.Root("accounts"), "accounts is empty"},
		{"empty id", list(types.StringValue("a:x=1"), types.StringValue("")), path.Root("accounts").AtListIndex(1), "accounts[1] is an empty string"},
		{"repeated", list(types.StringValue(id), types.StringUnknown(), types.StringValue(id)), path.Root("accounts").AtListIndex(2),
			"accounts[2] repeats accounts[0] (kind:token=…); list each account once, or its things appear twice."},
		{"fine", list(types.StringValue("a:x=1"), types.StringUnknown(), types.StringValue("a:x=2")), path.Path{}, ""},
	} {
		var resp validator.ListResponse
		check.ValidateList(context.Background(), validator.ListRequest{Path: path.Root("accounts"), ConfigValue: c.value}, &resp)
		if c.want == "" {
			if resp.Diagnostics.HasError() {
				t.Errorf("%s: refused: %v", c.name, resp.Diagnostics)
			}
			continue
		}
		if len(resp.Diagnostics) != 1 {
			t.Fatalf("%s: %d diagnostics, want 1: %v", c.name, len(resp.Diagnostics), resp.Diagnostics)
		}
		d := resp.Diagnostics[0]
		if d.Summary() != check.Summary || !strings.Contains(d.Detail(), c.want) || strings.Contains(d.Detail(), secret) {
			t.Errorf("%s: %q: %q, want %q", c.name, d.Summary(), d.Detail(), c.want)
		}
		if p, ok := d.(interface{ Path() path.Path }); !ok || !p.Path().Equal(c.at) {
			t.Errorf("%s: not on %s: %v", c.name, c.at, d)
		}
	}
}
