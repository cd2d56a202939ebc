package bootstrap

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
	"github.com/seedcompute/terraform-provider-compute/internal/tfidentity"
)

// Create claims the machine (keyed by the account's scope and the hostname,
// with a fresh claim, as compute_instance creates), saves it, and runs the
// bootstrap from the start. A machine claimed before by an apply that was
// interrupted, or released by the destroy of a tainted host this apply
// replaces, is claimed again by its key; the adapter re-derives from the
// machine how far it got, so the rerun resumes and never installs twice.
// A failed phase leaves the host in state with phase failed, so Terraform
// taints it.
func (r *Resource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	ctx = r.accounts.Logging(ctx)
	defer tfidentity.Follow(ctx, resp.Identity, &resp.Diagnostics, &resp.State)
	const summary = "Unable to create bootstrap host"
	var plan, config model
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.Config.Get(ctx, &config)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := withTimeout(ctx, plan.Timeouts, "create", defaultCreateTimeout)
	defer cancel()
	h, ok := r.open(&resp.Diagnostics, summary, plan.Account)
	if !ok {
		return
	}
	creq := plan.createRequest()
	call := adapter.Call{IdempotencyKey: adapter.IdempotencyKey(h.scope, creq.Name), Claim: adapter.NewClaimAt(r.clock().Now()),
		Account: r.registry.Label(h.loc)}
	var m adapter.Machine
	err := adapter.Retry(ctx, r.clock(), adapter.DefaultBackoff, fmt.Sprintf("claim machine for %q", creq.Name), func(ctx context.Context) error {
		var err error
		m, err = h.acc.Create(ctx, call, creq)
		return err
	})
	if err != nil {
		tfdiag.AddError(&resp.Diagnostics, fields, summary,
			fmt.Sprintf("Claiming a machine for host %q failed; nothing was installed. %s", creq.Name, tfdiag.WayOut(err)), err)
		return
	}
	// The machine is claimed: record it before anything else can fail.
	plan.Claim = types.StringValue(call.Claim)
	plan.setProgress(adapter.Progress{Phase: adapter.PhaseClaiming})
	plan.setMachine(m, "")
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if m.Adopted {
		resp.Diagnostics.AddWarning("Machine claimed again",
			fmt.Sprintf("Machine %s already carried this host's key (account and hostname), from an earlier apply that was interrupted or "+
				"a tainted host this apply replaces, so it was claimed again; the bootstrap continues from where the machine stands.", m.ID))
	}
	// A new host starts from nothing, whether its machine was claimed fresh
	// or again by its key: the adapter works out from the machine how far
	// an earlier attempt got, and takes a failure it finds there for that
	// attempt's, to be run anew (adapter.Bootstrapper).
	r.bootstrap(ctx, h, m.ID, &plan, &config, adapter.Progress{}, &resp.State, &resp.Diagnostics)
}

// bootstrap runs the phases from p, logging each phase the adapter reports,
// and records the progress it returns, error or not, then the machine as it
// is now.
func (r *Resource) bootstrap(ctx context.Context, h host, machineID string, plan, config *model, p adapter.Progress, state *tfsdk.State, diags *diag.Diagnostics) {
	const summary = "Unable to bootstrap host"
	hostname := plan.Hostname.ValueString()
	if h.boot == nil {
		diags.AddError(summary, fmt.Sprintf("The %s adapter of this account declares no bootstrap; this is a bug in the provider.", h.acc.Kind()))
		return
	}
	breq := plan.bootstrapRequest(ctx, config, diags)
	if diags.HasError() {
		return
	}
	log := adapter.LoggerFrom(ctx)
	report := func(p adapter.Progress) {
		log.Info(ctx, "bootstrap phase", map[string]any{"machine": machineID, "hostname": hostname, "phase": string(p.Phase)})
	}
	got, err := h.boot.Bootstrap(ctx, machineID, breq, p, report)
	// The bootstrap rebooted and renamed nothing through the cache.
	h.acc.Invalidate()
	plan.setProgress(got)
	m, readErr := r.retryRead(context.WithoutCancel(ctx), machineID, h.acc.Fresh)
	if readErr == nil {
		plan.setMachine(m, got.HostKey)
	}
	diags.Append(state.Set(ctx, plan)...)
	if err != nil {
		log.Warn(ctx, "bootstrap failed", map[string]any{"machine": machineID, "hostname": hostname, "phase": string(got.FailedPhase), "code": string(adapter.CodeOf(err))})
		tfdiag.AddError(diags, requestField, summary,
			// The reason is the error's message, which AddError appends: it
			// is said once, after what the next apply does.
			fmt.Sprintf("Host %q (machine %s) stopped in phase %s. It is saved in state with phase failed. %s",
				hostname, machineID, failedPhase(got), resumeWayOut(err)), err)
	}
}

// failedPhase names the phase that failed, for messages.
func failedPhase(p adapter.Progress) string {
	if p.FailedPhase != "" {
		return string(p.FailedPhase)
	}
	return string(p.Phase)
}

// resumeWayOut says how a failed bootstrap goes on, by its code, once: the
// adapter's reason says what failed, not what the next apply does.
func resumeWayOut(err error) string {
	const rerun = "The next apply replaces the tainted host: its destroy releases the machine and the new host claims it again by its key and " +
		"continues from where the machine stands, without installing twice; or run `terraform untaint` on it, and the next apply resumes it in place."
	if adapter.HostKeyMismatch(err) {
		return "A host key did not match its pin, so nothing was sent to that host: check that the machine is the one the backend says, then apply again. " + rerun
	}
	switch adapter.CodeOf(err) {
	case adapter.Transient, adapter.RateLimited:
		return "The phase ran out of time or the machine stopped answering; if it only needs longer, raise that phase's timeout. " + rerun
	case adapter.InvalidState:
		// The installation is what failed, so the next apply installs
		// again: "without installing twice" would not hold.
		return "The installer or the first boot failed: fix the cause (the image, a file, first_boot), then apply again. The next apply replaces " +
			"the tainted host: its destroy releases the machine and the new host claims it again by its key and installs it anew; or run " +
			"`terraform untaint` on it, and the next apply resumes it in place."
	}
	return tfdiag.WayOut(err) + " " + rerun
}
