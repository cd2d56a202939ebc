package bootstrap

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
)

// An account change never replaces the host, releases, resets or cancels
// its machine: the host is re-pointed at the new account in place, once one
// read of the machine through the new account proves that it reaches it
// (adapter.ReachedThrough), at plan when the new account is known and
// answers, otherwise at apply before anything is written. As
// compute_instance does (internal/instance/repoint.go).

// locatorOf reads an account id; the zero locator when it is malformed,
// which the plan has refused already.
func locatorOf(account types.String) adapter.Locator {
	l, _ := adapter.ParseLocator(account.ValueString())
	return l
}

// repointPlan plans an account change in place (the id, the machine's own,
// stays), and the proof is made now when the account is known; an error on
// account when it does not reach the machine.
func (r *Resource) repointPlan(ctx context.Context, plan, state *model, diags *diag.Diagnostics) {
	if r.accounts == nil || plan.Account.Equal(state.Account) {
		return
	}
	// The id is the machine's own; without one the resource is refused
	// where the machine is first needed.
	machineID := state.ID.ValueString()
	if machineID == "" {
		return
	}
	if plan.Account.IsUnknown() {
		// Proven at apply, before Update writes anything.
		return
	}
	if r.accounts.Registry.SameAccount(state.Account.ValueString(), plan.Account.ValueString()) {
		return
	}
	err := r.accounts.Reaches(ctx, plan.Account.ValueString(), machineID, state.Claim.ValueString(), state.Hostname.ValueString())
	switch {
	case err == nil:
	case adapter.NotReached(err):
		r.notReached(diags, "Unable to reach machine through new account", plan, state, machineID, err)
	default:
		tfdiag.AddWarning(diags, nil, "Account change not proven at plan",
			tfdiag.NotProvenAtPlan(r.accounts.Registry, locatorOf(plan.Account), machineOn(state, machineID)), err)
	}
}

// repointAtApply opens the account an update goes on with: the recorded
// one, or the new one once a read through it proved that it reaches the
// machine, with the host's id following it. false after an error, with
// nothing written.
func (r *Resource) repointAtApply(ctx context.Context, h host, machineID string, plan, state *model, diags *diag.Diagnostics) (host, bool) {
	const summary = "Unable to update bootstrap host"
	if plan.Account.Equal(state.Account) {
		return h, true
	}
	next, ok := r.open(diags, summary, plan.Account)
	if !ok {
		return h, false
	}
	if r.accounts.Registry.SameAccount(state.Account.ValueString(), plan.Account.ValueString()) {
		return next, true
	}
	m, err := r.retryRead(ctx, machineID, next.acc.Fresh)
	err = adapter.ReachedThrough(m, err, machineID, state.Claim.ValueString(), state.Hostname.ValueString())
	switch {
	case err == nil:
		return next, true
	case adapter.NotReached(err):
		r.notReached(diags, summary, plan, state, machineID, err)
	default:
		tfdiag.AddError(diags, nil, summary, tfdiag.NotReadAtApply(r.accounts.Registry, next.loc, machineOn(state, machineID), err), err)
	}
	return h, false
}

// notReached is the error on account for a new account that does not
// reach the machine, with the ways out.
func (r *Resource) notReached(diags *diag.Diagnostics, summary string, plan, state *model, machineID string, err error) {
	diags.AddAttributeError(path.Root("account"), summary,
		tfdiag.NotReached(r.accounts.Registry, locatorOf(state.Account), locatorOf(plan.Account), machineOn(state, machineID), err))
}

// machineOn is how the messages of an account change name the host's
// machine.
func machineOn(state *model, machineID string) tfdiag.Machine {
	return tfdiag.Machine{Kind: "bootstrap host", ID: machineID, Shown: fmt.Sprintf("(host %q)", state.Hostname.ValueString()),
		Deleted: "released", Deleting: "releasing", Next: "claims a machine"}
}

// warnCancels warns, at plan, that replacing or destroying the host ends
// its machine's rental: the account recorded in state, through which the
// old machine is released, is set to cancel it.
func (r *Resource) warnCancels(state *model, replacing bool, diags *diag.Diagnostics) {
	if r.accounts == nil {
		return
	}
	if w := tfdiag.CancelWarning(r.accounts.Registry, locatorOf(state.Account), machineOn(state, state.ID.ValueString()), state.Hostname.ValueString(), replacing); w != "" {
		diags.AddWarning(tfdiag.CancelSummary, w)
	}
}

// replacing reports whether the plan replaces the host: a change of an
// attribute that reinstalls it (replaceUnlessImported), other than on the
// first apply after an import.
func replacing(ctx context.Context, plan, state *model, p privateGetter) bool {
	if adopting(ctx, p) {
		return false
	}
	return !plan.MachineID.Equal(state.MachineID) || !plan.OfferID.Equal(state.OfferID) || !plan.Hostname.Equal(state.Hostname) ||
		!plan.Image.Equal(state.Image) || !plan.Disks.Equal(state.Disks) || !plan.Files.Equal(state.Files) || !plan.FirstBoot.Equal(state.FirstBoot)
}
