package instance

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// A machine whose mark lives in its name (adapter.Definition.MarkInName: a
// Robot server) loses it when someone renames it by hand. While this state
// holds it (the state has a claim) that is drift, not a machine gone out of
// the provider's hands: the refresh warns, the state reads it unmanaged, so
// the plan shows the mark coming back (managed, and the name), and the next
// apply writes the name with the state's claim through the mark an imported
// machine gets (UpdateRequest.Mark). Nothing else is sent to the machine.

// markLost reports whether m, read for this state, lost a mark its
// account's adapter writes back (adapter.Definition.MarkLost).
func (r *Resource) markLost(account string, m adapter.Machine, claim string) bool {
	loc, err := adapter.ParseLocator(account)
	if err != nil || r.accounts == nil {
		return false
	}
	def, err := r.accounts.Registry.Definition(loc.Kind)
	return err == nil && def.MarkLost(m, claim)
}

// warnMarkLost warns, on a refresh, about a machine of this state whose mark
// was removed by hand, naming it and what the next apply does.
func (r *Resource) warnMarkLost(diags *diag.Diagnostics, state model, m adapter.Machine, machineID string) {
	if !r.markLost(state.Account.ValueString(), m, state.Claim.ValueString()) {
		return
	}
	diags.AddWarning("Instance lost its claim mark",
		fmt.Sprintf("Machine %s (%q) on account %s no longer carries this state's claim: its name at the backend is now %q, without "+
			"the mark the provider writes after the name (renamed by hand?). This state still holds it. The next terraform apply "+
			"writes the name %q back with the mark and this state's claim, and sends nothing else to the machine; until then a "+
			"power switch or destroy of it is refused.", machineID, state.Name.ValueString(), r.registry.LabelID(state.Account.ValueString()),
			m.Name, state.Name.ValueString()))
}
