package bootstrap

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
	"github.com/seedcompute/terraform-provider-compute/internal/tfidentity"
)

// Update changes only what the machine does not depend on (location and
// max_monthly_price, read only at the claim; ready_command; timeouts), and
// two things more: a host whose bootstrap has not reached ready resumes it
// from the progress in state, and the first apply after an import records
// the configuration and writes the mark onto a machine that has none.
func (r *Resource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	ctx = r.accounts.Logging(ctx)
	defer tfidentity.Follow(ctx, resp.Identity, &resp.Diagnostics, &resp.State)
	const summary = "Unable to update bootstrap host"
	var plan, state, config model
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := withTimeout(ctx, plan.Timeouts, "update", defaultUpdateTimeout)
	defer cancel()
	h, machineID, ok := r.target(&resp.Diagnostics, summary, state)
	if ok {
		h, ok = r.repointAtApply(ctx, h, machineID, &plan, &state, &resp.Diagnostics)
	}
	if !ok {
		return
	}
	if adopting(ctx, req.Private) || remarking(ctx, req.Private) {
		r.adopt(ctx, h, machineID, &plan, state.Claim.ValueString(), resp)
		return
	}
	if state.Phase.ValueString() != string(adapter.PhaseReady) {
		r.bootstrap(ctx, h, machineID, &plan, &config, state.progress(), &resp.State, &resp.Diagnostics)
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// adopt is the first apply after an import, or after a refresh found the
// mark lost (remark.go): the host is taken as it is, nothing is installed. A
// machine without the mark gets one, keyed by the configured hostname and
// named so, with the state's claim (keep) or a new one, when the adapter can
// write it; so does one whose mark this state's own interrupted adoption may
// have written (adapter.ResumesAs). A machine another state holds is
// refused, never taken over.
func (r *Resource) adopt(ctx context.Context, h host, machineID string, plan *model, keep string, resp *resource.UpdateResponse) {
	const summary = "Unable to update bootstrap host"
	m, err := r.retryRead(ctx, machineID, h.acc.Fresh)
	hostname := plan.Hostname.ValueString()
	key := adapter.IdempotencyKey(h.scope, hostname)
	resume := err == nil && adapter.ResumesAs(m, keep, key, r.clock().Now())
	if err == nil && !resume && !adapter.Held(m, keep) {
		err = adapter.LostHold(machineID, hostname, r.registry.Label(h.loc))
	}
	if err == nil && (!m.Managed || resume) && h.acc.Capabilities().Has(adapter.CapUpdate) {
		claim := keep
		if claim == "" {
			claim = adapter.NewClaimAt(r.clock().Now())
		}
		// A first claim is written unconfirmed, as a create's is: should
		// this apply be killed before its state is saved, the rerun takes
		// it up (adapter.Resumable), and the next refresh confirms it.
		mark := adapter.Mark{Key: key, Fingerprint: adapter.Fingerprint(plan.createRequest()),
			Claim: claim, Unconfirmed: keep == ""}
		m, err = h.acc.Update(ctx, machineID, adapter.UpdateRequest{Name: &hostname, Mark: &mark, Current: &m})
		if err == nil {
			plan.Claim = types.StringValue(claim)
		}
	}
	if err != nil {
		tfdiag.AddError(&resp.Diagnostics, nil, summary,
			fmt.Sprintf("Taking over imported machine %s failed; the state is kept as it was. %s", machineID, tfdiag.WayOut(err)), err)
		return
	}
	if plan.Claim.IsUnknown() {
		plan.Claim = optional(m.Claim)
	}
	plan.setMachine(m, plan.progress().HostKey)
	resp.Diagnostics.Append(resp.State.Set(ctx, plan)...)
	resp.Diagnostics.Append(mark(ctx, resp.Private, privateAdopting, false)...)
	resp.Diagnostics.Append(mark(ctx, resp.Private, privateRemark, false)...)
}
