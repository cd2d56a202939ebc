package bootstrap

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// A host whose mark lives in its server's name (adapter.Definition.MarkInName:
// Robot) loses it when someone renames the server by hand. While this state
// holds it (the state has a claim) that is drift: the refresh warns and
// notes privateRemark, the plan then shows the claim being written (claim
// unknown), and the next apply writes the hostname back with the mark and
// the state's claim, through the path the first apply after an import takes
// (adopt), installing nothing.
const privateRemark = "remark"

// noteMarkLost warns about a held machine that lost its mark, and records
// for the plan whether it did.
func (r *Resource) noteMarkLost(ctx context.Context, diags *diag.Diagnostics, p privateSetter, h host, state model, m adapter.Machine) {
	def, err := r.accounts.Registry.Definition(h.loc.Kind)
	lost := err == nil && def.MarkLost(m, state.Claim.ValueString())
	diags.Append(mark(ctx, p, privateRemark, lost)...)
	if !lost {
		return
	}
	diags.AddWarning("Bootstrap host lost its claim mark",
		fmt.Sprintf("Server %s (host %q) on account %s no longer carries this state's claim: its name at the backend is now %q, without "+
			"the mark the provider writes after the name (renamed by hand?). This state still holds it. The next terraform apply "+
			"writes the name %q back with the mark and this state's claim, and installs nothing; until then a destroy of it "+
			"releases nothing.", m.ID, state.Hostname.ValueString(), r.registry.LabelID(state.Account.ValueString()),
			m.Name, state.Hostname.ValueString()))
}

// remarking reports whether the last refresh found the mark lost.
func remarking(ctx context.Context, p privateGetter) bool { return has(ctx, p, privateRemark) }
