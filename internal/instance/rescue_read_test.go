package instance

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// TestRescueKeepsPower: a machine a backend reports in its rescue system
// (compute_instance_rescue booted it there) is read with state rescue and
// the power its configuration had, so the next plan switches nothing.
func TestRescueKeepsPower(t *testing.T) {
	for _, was := range []string{powerOn, powerOff} {
		m := model{Power: types.StringValue(was)}
		if d := m.setMachine(context.Background(), adapter.Machine{ID: "7", State: adapter.StateRescue, RawState: "rescue", Managed: true}); d.HasError() {
			t.Fatalf("setMachine: %v", d)
		}
		if m.Power.ValueString() != was || m.State.ValueString() != string(adapter.StateRescue) {
			t.Errorf("a machine in rescue read with power %q was %q: power %s, state %s; want power kept, state rescue",
				m.Power.ValueString(), was, m.Power, m.State)
		}
	}
}
