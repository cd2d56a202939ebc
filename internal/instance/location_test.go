package instance

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// TestDefaultLocationByRole: a new instance that names no location takes
// the value of the account setting whose role is the default location,
// whatever the adapter calls it; an adapter without one leaves it unknown.
func TestDefaultLocationByRole(t *testing.T) {
	def := adapter.Definition{Kind: "tiny", Block: "tiny_cloud", Settings: []adapter.Setting{
		{Name: "location", Description: "not the default location"},
		{Name: "region", Role: adapter.RoleLocation},
	}}
	loc := adapter.Locator{Kind: "tiny", Settings: map[string]string{"location": "wrong", "region": "north-2"}}

	plan := model{Location: types.StringUnknown()}
	defaultLocation(&plan, loc, def, true)
	if plan.Location.ValueString() != "north-2" {
		t.Errorf("location %s, want the region setting's north-2", plan.Location)
	}
	if got := locationSetting(def); got != "tiny_cloud.region" {
		t.Errorf("the way out names %q, want tiny_cloud.region", got)
	}

	plan = model{Location: types.StringValue("south-1")}
	defaultLocation(&plan, loc, def, true)
	if plan.Location.ValueString() != "south-1" {
		t.Errorf("a configured location was replaced: %s", plan.Location)
	}

	plan = model{Location: types.StringUnknown()}
	defaultLocation(&plan, loc, adapter.Definition{Kind: "tiny", Settings: def.Settings[:1]}, true)
	if !plan.Location.IsUnknown() {
		t.Errorf("an adapter without a default location gave %s", plan.Location)
	}
}
