package bootstrap

import (
	"context"
	"fmt"
	"time"

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

// proofTimeout bounds the plan's one read through the new account.
const proofTimeout = 30 * time.Second

// machineIDOf is the machine's own id: the host's id.
func machineIDOf(id types.String) (string, error) {
	if id.ValueString() == "" {
		return "", adapter.Errorf(adapter.InvalidInput, "the host has no id in state")
	}
	return id.ValueString(), nil
}

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
	machineID, err := machineIDOf(state.ID)
	if err != nil {
		return
	}
	if plan.Account.IsUnknown() {
		// Proven at apply, before Update writes anything.
		return
	}
	if r.accounts.Registry.SameAccount(state.Account.ValueString(), plan.Account.ValueString()) {
		return
	}
	acc, _, err := r.accounts.Open(plan.Account.ValueString())
	var m adapter.Machine
	if err == nil {
		ctx, cancel := context.WithTimeout(ctx, proofTimeout)
		m, err = acc.Fresh(ctx, machineID)
		cancel()
	}
	err = adapter.ReachedThrough(m, err, machineID, state.Claim.ValueString(), state.Hostname.ValueString())
	switch {
	case err == nil:
	case adapter.NotReached(err):
		r.notReached(diags, "Account does not reach the machine", plan, state, machineID, err)
	default:
		tfdiag.AddWarning(diags, nil, "Account change not proven at plan",
			fmt.Sprintf("account changes to %s, and whether it reaches machine %s (host %q) could not be read now. The apply reads it "+
				"through the new account before anything is written, and fails there if the new account does not reach it.",
				r.accounts.Registry.Describe(locatorOf(plan.Account)), machineID, state.Hostname.ValueString()), err)
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
		tfdiag.AddError(diags, nil, summary,
			fmt.Sprintf("account changes to %s, and machine %s (host %q) could not be read through it, so the change is not applied and "+
				"nothing was written. %s", r.accounts.Registry.Describe(next.loc), machineID, state.Hostname.ValueString(), tfdiag.WayOut(err)), err)
	}
	return h, false
}

// notReached is the error on account for a new account that does not
// reach the machine, with the ways out.
func (r *Resource) notReached(diags *diag.Diagnostics, summary string, plan, state *model, machineID string, err error) {
	reg := r.accounts.Registry
	diags.AddAttributeError(path.Root("account"), summary, fmt.Sprintf(
		"account changes from %s to %s%s, and machine %s (host %q) is not reached through the new account: %s. An account change "+
			"re-points a host in place only when the new account reaches the same machine, so nothing was changed. "+
			"To keep the host, set account back. To make a new host on the new account, run `terraform taint ADDRESS` with this "+
			"resource's address and apply: the old machine is released through the account recorded in state, its rental cancelled if that account sets so (`terraform apply -replace` "+
			"is refused by this same check, which runs in the plan it would replace). To let the old machine go without releasing it, forget it: "+
			"`terraform state rm ADDRESS`, or apply once with the resource replaced by a `removed {}` block with "+
			"`lifecycle { destroy = false }`; the next apply with the resource claims a machine on the new account.%s",
		reg.Describe(locatorOf(state.Account)), reg.Describe(locatorOf(plan.Account)), tfdiag.AccountChanges(reg, locatorOf(state.Account), locatorOf(plan.Account)),
		machineID, state.Hostname.ValueString(), tfdiag.Message(err), tfdiag.RentalNote(reg, locatorOf(state.Account))))
}

// warnCancels warns, at plan, that replacing or destroying the host ends
// its machine's rental: the account recorded in state, through which the
// old machine is released, is set to cancel it.
func (r *Resource) warnCancels(state *model, replacing bool, diags *diag.Diagnostics) {
	if r.accounts == nil {
		return
	}
	l := locatorOf(state.Account)
	def, err := r.accounts.Registry.Definition(l.Kind)
	if err != nil {
		return
	}
	setting, on := def.CancelsRental(l.Settings)
	if !on {
		return
	}
	machineID, _ := machineIDOf(state.ID)
	what, cause := "destroys", "destroy"
	if replacing {
		what, cause = "replaces", "replacement"
	}
	diags.AddWarning("Machine's rental will be cancelled",
		fmt.Sprintf("This plan %s bootstrap host %q: machine %s is released through %s, whose %s.%s is \"true\", so its rental is "+
			"cancelled, which cannot be undone. To keep the machine, set %s = \"false\" on the account and apply that first, or "+
			"change what forces the %s.", what, state.Hostname.ValueString(), machineID, r.accounts.Registry.Describe(l),
			def.BlockName(), setting, setting, cause))
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
