package tftimeouts

import (
	"context"
	"strings"
	"testing"
	"time"

	dtimeouts "github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	rtimeouts "github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestUnreachableInTheBlocks: the attribute sits beside read in both kinds
// of block, in the block's type too (or the framework could not read a
// configuration that sets it), documents its default, takes "0s" and
// refuses a negative duration; UnreachableOf reads it, or the default.
func TestUnreachableInTheBlocks(t *testing.T) {
	ctx := context.Background()
	r := Resource(ctx, Op{Name: "read", Default: time.Minute, What: "a refresh may take"}, Unreachable(30*time.Second)).(rschema.SingleNestedBlock)
	d := DataSource(ctx, Op{Default: time.Minute, What: "the read may take"}, Unreachable(30*time.Second)).(dschema.SingleNestedBlock)
	rType := r.CustomType.(rtimeouts.Type).AttrTypes
	dType := d.CustomType.(dtimeouts.Type).AttrTypes
	for name, a := range map[string]interface {
		GetMarkdownDescription() string
	}{"resource": r.Attributes[UnreachableName], "data source": d.Attributes[UnreachableName]} {
		if a == nil || !strings.Contains(a.GetMarkdownDescription(), "Defaults to `30s`") || !strings.Contains(a.GetMarkdownDescription(), "refused") {
			t.Errorf("%s block: unreachable %v", name, a)
		}
	}
	if rType[UnreachableName] != types.StringType || rType["read"] != types.StringType || dType[UnreachableName] != types.StringType {
		t.Errorf("block types %v, %v lack unreachable beside read", rType, dType)
	}
	v := r.Attributes[UnreachableName].(rschema.StringAttribute).Validators[0]
	if validate(v, types.StringValue("-1s")).Diagnostics.HasError() == false || validate(v, types.StringValue("0s")).Diagnostics.HasError() {
		t.Error("unreachable must refuse -1s and take 0s")
	}
	if _, ok := Resource(ctx, Op{Name: "read", Default: time.Minute}).(rschema.SingleNestedBlock).Attributes[UnreachableName]; ok {
		t.Error("a block not asked for it has unreachable")
	}

	attrTypes := map[string]attr.Type{"read": types.StringType, UnreachableName: types.StringType}
	block := func(read, unreachable attr.Value) types.Object {
		return types.ObjectValueMust(attrTypes, map[string]attr.Value{"read": read, UnreachableName: unreachable})
	}
	for _, c := range []struct {
		block types.Object
		want  time.Duration
	}{
		{types.ObjectNull(attrTypes), 30 * time.Second},
		{block(types.StringValue("5m"), types.StringNull()), 30 * time.Second},
		{block(types.StringNull(), types.StringValue("2m")), 2 * time.Minute},
		{block(types.StringNull(), types.StringValue("0s")), 0},
		{block(types.StringNull(), types.StringUnknown()), 30 * time.Second},
	} {
		if got := UnreachableOf(c.block, 30*time.Second); got != c.want {
			t.Errorf("UnreachableOf(%v) = %s, want %s", c.block, got, c.want)
		}
	}
}
