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
	"github.com/seedcompute/terraform-provider-compute/internal/tfmodel"
)

// An account change never replaces the machine: the instance is re-pointed
// at the new account in place, and nothing is sent to the machine, once
// one read of the machine through the new account proves that it reaches it
// (adapter.ReachedThrough). The proof is made at plan when the new account
// is known and its backend answers, otherwise at apply before anything is
// written; an account that does not reach the machine fails the plan or the
// apply on account, with the way out.

// repointAtPlan proves at plan that the new account, known, reaches the
// machine; when it does not, the error is on account. A proof that cannot
// be made here only warns: the apply makes it.
func (r *Resource) repointAtPlan(ctx context.Context, plan, state *model, diags *diag.Diagnostics) {
	if r.accounts.Registry.SameAccount(state.Account.ValueString(), plan.Account.ValueString()) {
		return
	}
	// The id is the machine's own; without one the resource is refused
	// where the machine is first needed.
	machineID := state.ID.ValueString()
	if machineID == "" {
		return
	}
	err := r.accounts.Reaches(ctx, plan.Account.ValueString(), machineID, state.Claim.ValueString(), state.Name.ValueString())
	switch {
	case err == nil:
	case adapter.NotReached(err):
		r.notReached(diags, "Unable to reach machine through new account", plan, state, machineID, err)
	default:
		tfdiag.AddWarning(diags, nil, "Account change not proven at plan",
			tfdiag.NotProvenAtPlan(r.accounts.Registry, locatorOf(plan.Account), machineOn(state, machineID)), err)
	}
}

// repointAtApply is readHeld for an update (key: the create key it writes):
// when the account changed, the
// machine is read through the new account and must be the one this state
// holds (the proof the plan could not make, or made earlier); otherwise it
// is read as every update reads it.
func (r *Resource) repointAtApply(ctx context.Context, acc *adapter.Cached, machineID string, plan, state model, key string, diags *diag.Diagnostics) (adapter.Machine, bool) {
	if r.accounts.Registry.SameAccount(state.Account.ValueString(), plan.Account.ValueString()) {
		return r.readHeld(ctx, acc, machineID, state, key, diags)
	}
	m, err := r.fresh(ctx, acc, machineID)
	err = adapter.ReachedThrough(m, err, machineID, state.Claim.ValueString(), state.Name.ValueString())
	switch {
	case err == nil:
		return m, true
	case adapter.NotReached(err):
		r.notReached(diags, "Unable to update instance", &plan, &state, machineID, err)
	default:
		tfdiag.AddError(diags, nil, "Unable to update instance",
			tfdiag.NotReadAtApply(r.accounts.Registry, locatorOf(plan.Account), machineOn(&state, machineID), err), err)
	}
	return m, false
}

// notReached is the error on account for a new account that does not
// reach the machine, with the ways out.
func (r *Resource) notReached(diags *diag.Diagnostics, summary string, plan, state *model, machineID string, err error) {
	diags.AddAttributeError(path.Root("account"), summary,
		tfdiag.NotReached(r.accounts.Registry, locatorOf(state.Account), locatorOf(plan.Account), machineOn(state, machineID), err))
}

// machineOn is how the messages of an account change name the machine.
func machineOn(state *model, machineID string) tfdiag.Machine {
	return tfdiag.Machine{Kind: "instance", ID: machineID, Shown: fmt.Sprintf("(%q)", state.Name.ValueString()),
		Deleted: "deleted", Deleting: "deleting", Next: "creates a new machine"}
}

// locatorOf reads an account id; the zero locator when it is malformed,
// which the plan has refused already.
func locatorOf(account types.String) adapter.Locator {
	l, _ := adapter.ParseLocator(account.ValueString())
	return l
}

// warnCancels warns, at plan, that replacing or destroying the machine
// ends its rental: the account recorded in state (through which the old
// machine is deleted) is set to cancel it.
func (r *Resource) warnCancels(state *model, replacing bool, resp *resource.ModifyPlanResponse) {
	if r.accounts == nil {
		return
	}
	if w := tfdiag.CancelWarning(r.accounts.Registry, locatorOf(state.Account), machineOn(state, state.ID.ValueString()), state.Name.ValueString(), replacing); w != "" {
		resp.Diagnostics.AddWarning(tfdiag.CancelSummary, w)
	}
}

// replacing reports whether the plan replaces the machine: new user data
// or an offer the machine is not of (already in resp), or a known change
// of offer_id or image that the state did not hold as null (unreported),
// or of location.
func replacing(plan, state *model, resp *resource.ModifyPlanResponse) bool {
	changed := func(p, s types.String) bool { return !p.IsUnknown() && !p.Equal(s) }
	return len(resp.RequiresReplace) > 0 || (changed(plan.OfferID, state.OfferID) && !state.OfferID.IsNull()) ||
		(changed(plan.Image, state.Image) && !state.Image.IsNull()) || changed(plan.Location, state.Location)
}

// planDestroy warns when destroying the machine cancels its rental.
func (r *Resource) planDestroy(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.State.Raw.IsNull() {
		return
	}
	var state model
	if d := tfmodel.Get(ctx, req.State.Schema.Type(), req.State.Raw, &state); d.HasError() {
		return
	}
	r.warnCancels(&state, false, resp)
}
