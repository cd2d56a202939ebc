package tfmodel

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// sample has a field of every kind the provider's models hold.
type sample struct {
	ID      types.String `tfsdk:"id"`
	Name    types.String `tfsdk:"name"`
	Managed types.Bool   `tfsdk:"managed"`
	Labels  types.Map    `tfsdk:"labels"`
	Actions types.List   `tfsdk:"actions"`
	Limits  types.Object `tfsdk:"limits"`
	Ignored string       `tfsdk:"-"`
}

var limitTypes = map[string]attr.Type{"read": types.StringType, "update": types.StringType}

var sampleSchema = schema.Schema{
	Attributes: map[string]schema.Attribute{
		"id":      schema.StringAttribute{Computed: true},
		"name":    schema.StringAttribute{Required: true},
		"managed": schema.BoolAttribute{Computed: true},
		"labels":  schema.MapAttribute{ElementType: types.StringType, Optional: true},
		"actions": schema.ListAttribute{ElementType: types.StringType, Computed: true},
	},
	Blocks: map[string]schema.Block{
		"limits": schema.SingleNestedBlock{Attributes: map[string]schema.Attribute{
			"read": schema.StringAttribute{Optional: true}, "update": schema.StringAttribute{Optional: true},
		}},
	},
}

// values are models as plans and states hold them: known, null, unknown
// and empty values of every kind.
func values(t *testing.T) []sample {
	t.Helper()
	labels, d := types.MapValueFrom(context.Background(), types.StringType, map[string]string{"env": "prod", "team": "a"})
	actions, d2 := types.ListValueFrom(context.Background(), types.StringType, []string{"reboot", "reset"})
	limits, d3 := types.ObjectValue(limitTypes, map[string]attr.Value{"read": types.StringValue("5m"), "update": types.StringNull()})
	d.Append(d2...)
	d.Append(d3...)
	if d.HasError() {
		t.Fatal(d)
	}
	return []sample{
		{ID: types.StringValue("101"), Name: types.StringValue("web-1"), Managed: types.BoolValue(true), Labels: labels, Actions: actions, Limits: limits},
		{ID: types.StringUnknown(), Name: types.StringValue(""), Managed: types.BoolUnknown(), Labels: types.MapNull(types.StringType),
			Actions: types.ListUnknown(types.StringType), Limits: types.ObjectNull(limitTypes)},
		{ID: types.StringNull(), Name: types.StringUnknown(), Managed: types.BoolNull(), Labels: types.MapValueMust(types.StringType, map[string]attr.Value{}),
			Actions: types.ListNull(types.StringType), Limits: types.ObjectUnknown(limitTypes)},
	}
}

// TestAsTheFrameworkDoes: Value writes what the framework's Set writes, and
// Get reads back what the framework's Get reads, for every kind of value.
func TestAsTheFrameworkDoes(t *testing.T) {
	ctx := context.Background()
	typ := sampleSchema.Type()
	for i, want := range values(t) {
		framework := tfsdk.Plan{Schema: sampleSchema}
		if d := framework.Set(ctx, &want); d.HasError() {
			t.Fatalf("%d: the framework's Set: %v", i, d)
		}
		ours := tfsdk.Plan{Schema: sampleSchema}
		if d := Set(ctx, &ours, typ, &want); d.HasError() {
			t.Fatalf("%d: Set: %v", i, d)
		}
		if !ours.Raw.Equal(framework.Raw) {
			t.Errorf("%d: Set wrote\n%s\nthe framework\n%s", i, ours.Raw, framework.Raw)
		}
		var got, fromFramework sample
		if d := Get(ctx, typ, framework.Raw, &got); d.HasError() {
			t.Fatalf("%d: Get: %v", i, d)
		}
		if d := framework.Get(ctx, &fromFramework); d.HasError() {
			t.Fatalf("%d: the framework's Get: %v", i, d)
		}
		if !equal(got, fromFramework) || !equal(got, want) {
			t.Errorf("%d: Get read %+v, the framework %+v, from %+v", i, got, fromFramework, want)
		}
	}
}

func equal(a, b sample) bool {
	return a.ID.Equal(b.ID) && a.Name.Equal(b.Name) && a.Managed.Equal(b.Managed) && a.Labels.Equal(b.Labels) &&
		a.Actions.Equal(b.Actions) && a.Limits.Equal(b.Limits)
}

// TestModelsThatDoNotFit: a model that does not fit its schema, or a value
// that is no object, is the provider's fault, said as such, never a panic.
func TestModelsThatDoNotFit(t *testing.T) {
	ctx := context.Background()
	typ := sampleSchema.Type()
	good := values(t)[0]
	plan := tfsdk.Plan{Schema: sampleSchema}
	if d := Set(ctx, &plan, typ, &good); d.HasError() {
		t.Fatal(d)
	}
	type missing struct {
		ID types.String `tfsdk:"id"`
	}
	type untagged struct {
		ID types.String
	}
	type notAValue struct {
		ID      string       `tfsdk:"id"`
		Name    types.String `tfsdk:"name"`
		Managed types.Bool   `tfsdk:"managed"`
		Labels  types.Map    `tfsdk:"labels"`
		Actions types.List   `tfsdk:"actions"`
		Limits  types.Object `tfsdk:"limits"`
	}
	type badTag struct {
		ID types.String `tfsdk:"Id"`
	}
	type wrongKind struct {
		ID      types.Bool   `tfsdk:"id"`
		Name    types.String `tfsdk:"name"`
		Managed types.Bool   `tfsdk:"managed"`
		Labels  types.Map    `tfsdk:"labels"`
		Actions types.List   `tfsdk:"actions"`
		Limits  types.Object `tfsdk:"limits"`
	}
	for name, c := range map[string]struct {
		raw   tftypes.Value
		model any
		says  string
	}{
		"a field short":     {plan.Raw, &missing{}, "1 fields for the schema's 6"},
		"no tag":            {plan.Raw, &untagged{}, "no tfsdk tag"},
		"not a value":       {plan.Raw, &notAValue{}, "not a framework value"},
		"another kind":      {plan.Raw, &wrongKind{}, "cannot hold"},
		"not a pointer":     {plan.Raw, sample{}, "not a pointer to a struct"},
		"a null object":     {tftypes.NewValue(typ.TerraformType(ctx), nil), &sample{}, "null or unknown"},
		"an unknown object": {tftypes.NewValue(typ.TerraformType(ctx), tftypes.UnknownValue), &sample{}, "null or unknown"},
		"a tag of no name":  {plan.Raw, &badTag{}, "not an attribute name"},
	} {
		d := Get(ctx, typ, c.raw, c.model)
		if !d.HasError() || !strings.Contains(d.Errors()[0].Detail(), c.says) || !strings.Contains(d.Errors()[0].Detail(), "report it") {
			t.Errorf("%s: Get said %v, want an error saying %q", name, d, c.says)
		}
	}
	// A value that does not fit its attribute's type.
	bad := good
	bad.Labels = types.MapValueMust(types.BoolType, map[string]attr.Value{"a": types.BoolValue(true)})
	if _, d := Value(ctx, typ, &bad); !d.HasError() || !strings.Contains(d.Errors()[0].Detail(), "report it") {
		t.Errorf("Value of a map of bools for a map of strings said %v", d)
	}
}

// TestFewerAllocationsThanTheFramework guards the reason the package
// exists: reading and writing a model allocates a small part of what the
// framework's reflection does (which compiles a regular expression per
// field), counted, not timed.
func TestFewerAllocationsThanTheFramework(t *testing.T) {
	ctx := context.Background()
	typ := sampleSchema.Type()
	m := values(t)[0]
	plan := tfsdk.Plan{Schema: sampleSchema}
	if d := Set(ctx, &plan, typ, &m); d.HasError() {
		t.Fatal(d)
	}
	var out sample
	ours := testing.AllocsPerRun(20, func() {
		_ = Get(ctx, typ, plan.Raw, &out)
		_ = Set(ctx, &plan, typ, &out)
	})
	framework := testing.AllocsPerRun(20, func() {
		_ = plan.Get(ctx, &out)
		_ = plan.Set(ctx, &out)
	})
	if ours*2 > framework {
		t.Errorf("Get and Set allocate %.0f times, the framework's %.0f: not even half", ours, framework)
	}
	t.Logf("allocations of a Get and a Set: %.0f, the framework's: %.0f", ours, framework)
}
