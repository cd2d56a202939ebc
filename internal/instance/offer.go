package instance

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
)

// An imported machine may have no offer_id in state: its backend reported
// none, as Proxmox VE does for a VM whose cores and memory no flavor of the
// account had when it was read. Its configured offer_id is then taken in
// place, as a null image is (unreported), when the machine, read through
// the configured account, is of that offer; otherwise the change replaces
// it, as any other change of offer does. The read goes through the
// configured account because the one recorded in state may be the one
// without the flavor (an import block's identity written before the flavor
// was added): reading through it again would replace the machine on every
// plan.

// planUnreportedOffer decides, at plan, whether a configured offer_id the
// state holds as null replaces the machine. A read that fails only warns:
// the apply reads the machine anyway and refuses an offer it is not of
// (offerFits).
func (r *Resource) planUnreportedOffer(ctx context.Context, plan, state *model, accountKnown bool, resp *resource.ModifyPlanResponse) {
	if !state.OfferID.IsNull() || !known(plan.OfferID) || !accountKnown || state.ID.ValueString() == "" {
		return
	}
	acc, _, err := r.accounts.Open(plan.Account.ValueString())
	var m adapter.Machine
	if err == nil {
		ctx, cancel := context.WithTimeout(ctx, adapter.ProofBound)
		m, err = r.read(ctx, acc, state.ID.ValueString(), adapter.ProofBound)
		cancel()
	}
	switch {
	case err == nil && m.OfferID == plan.OfferID.ValueString():
	case err == nil:
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root(adapter.FieldOfferID))
	case tfdiag.UnknownUntilApply(err):
	default:
		tfdiag.AddWarning(&resp.Diagnostics, nil, "Offer not checked at plan",
			fmt.Sprintf("Machine %s (%q) has no offer_id in state (its backend reported none when it was imported), and it could not be "+
				"read at plan through the configured account, so whether it is of offer_id %q is checked at apply instead: the apply "+
				"refuses the change when it is not, and the next plan replaces the machine. %s",
				state.ID.ValueString(), state.Name.ValueString(), plan.OfferID.ValueString(), tfdiag.PlanWayOut(err)), err)
	}
}

// offerFits refuses, at apply, a configured offer_id that the state held
// as null and the machine, read through the configured account, is not of:
// a plan that could not read it did not replace it.
func offerFits(diags *diag.Diagnostics, summary string, plan, state model, current adapter.Machine) bool {
	if !state.OfferID.IsNull() || plan.OfferID.ValueString() == current.OfferID {
		return true
	}
	offer := "none of the account's offers"
	if current.OfferID != "" {
		offer = fmt.Sprintf("offer %q", current.OfferID)
	}
	diags.AddAttributeError(path.Root(adapter.FieldOfferID), summary,
		fmt.Sprintf("Machine %s (%q) had no offer_id in state, and read through the configured account it is of %s, not of offer_id %q; "+
			"it was left as it was. Set offer_id to the offer the machine is of (for Proxmox VE, a flavor with the VM's cores and memory), "+
			"or run terraform apply again: the next plan replaces the machine.",
			current.ID, state.Name.ValueString(), offer, plan.OfferID.ValueString()))
	return false
}

// unreported is an offer_id or image that the state holds as null: one
// imported from a backend that does not report it (a Proxmox clone does
// not say which template it came from, nor which flavor its size is when
// the account has none of it). The configured value is then not a change
// the schema replaces on: the image is taken as the machine's, and the
// offer when planUnreportedOffer finds the machine is of it.
func unreported(p path.Path, state types.String) bool {
	return (p.Equal(path.Root(adapter.FieldImage)) || p.Equal(path.Root(adapter.FieldOfferID))) && state.IsNull()
}
