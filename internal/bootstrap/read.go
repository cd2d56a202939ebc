package bootstrap

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
	"github.com/seedcompute/terraform-provider-compute/internal/tfidentity"
	"github.com/seedcompute/terraform-provider-compute/internal/tftimeouts"
)

// Read refreshes the machine through the account's shared listing and keeps
// the bootstrap's progress as it is: only a bootstrap moves it. Only
// authoritative absence removes the host from state; a machine another
// state has claimed since is not refreshed, with a warning, as
// compute_instance does. ready is read anew: phase ready and the machine
// running.
func (r *Resource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	ctx = r.accounts.Logging(ctx)
	defer tfidentity.Follow(ctx, resp.Identity, &resp.Diagnostics, &resp.State, &req.State)
	const summary = "Unable to read bootstrap host"
	var state model
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := withTimeout(ctx, state.Timeouts, "read", defaultReadTimeout)
	defer cancel()
	h, machineID, ok := r.target(&resp.Diagnostics, summary, state)
	if !ok {
		return
	}
	// A refresh is a read made while planning: an endpoint that cannot be
	// reached is given up after timeouts.unreachable.
	var m adapter.Machine
	err := h.acc.PlanRead(ctx, adapter.PlanReads(tftimeouts.UnreachableOf(state.Timeouts, adapter.DefaultUnreachable)), "read machine "+machineID,
		func(ctx context.Context) error {
			var err error
			m, err = h.acc.Get(ctx, machineID)
			return err
		})
	switch {
	case err != nil && has(ctx, req.Private, privateImported) &&
		tfidentity.ImportReadFailed(&resp.Diagnostics, "bootstrap host", machineID, r.registry.Describe(h.loc), err):
		return
	case adapter.IsNotFound(err):
		resp.Diagnostics.AddWarning("Bootstrap host is gone",
			fmt.Sprintf("Machine %s (host %q) no longer exists on %s: %s\n\nIt was removed from the state; the next apply claims a machine again.",
				machineID, state.Hostname.ValueString(), r.registry.Describe(h.loc), tfdiag.Message(err)))
		resp.State.RemoveResource(ctx)
		return
	case tfdiag.Unreachable(err):
		def, _ := r.accounts.Registry.Definition(h.loc.Kind)
		tfdiag.AddError(&resp.Diagnostics, nil, summary, fmt.Sprintf("Reading machine %s (host %q) on %s failed. %s",
			machineID, state.Hostname.ValueString(), r.registry.Describe(h.loc), tfdiag.UnreachableWayOut(tfdiag.Endpoint(def, h.loc.Settings, r.registry.Environment()), err)), err)
		return
	case err != nil:
		tfdiag.AddError(&resp.Diagnostics, nil, summary,
			fmt.Sprintf("Reading machine %s (host %q) on %s failed; the state is kept as it was. %s", machineID, state.Hostname.ValueString(), r.registry.Describe(h.loc), tfdiag.WayOut(err)), err)
		return
	}
	if has(ctx, req.Private, privateImported) {
		tfidentity.WarnImportedClaim(&resp.Diagnostics, m, machineID, r.registry.Label(h.loc), r.clock().Now())
		takeImported(&state, m)
		resp.Diagnostics.Append(mark(ctx, resp.Private, privateImported, false)...)
	}
	if adapter.Resumable(m, state.Claim.ValueString(), r.clock().Now()) {
		// The first apply after the import marked the machine and was
		// killed before its state was saved: the plan adopts it again, and
		// that apply takes up the claim it wrote (adopt).
		resp.Diagnostics.Append(mark(ctx, resp.Private, privateAdopting, true)...)
	} else if !adapter.Held(m, state.Claim.ValueString()) {
		resp.Diagnostics.AddWarning("Bootstrap host held by another state", tfdiag.Message(adapter.LostHold(machineID, state.Hostname.ValueString(), r.registry.Label(h.loc))))
		return
	}
	if state.Phase.ValueString() != string(adapter.PhaseFailed) {
		// A host whose bootstrap failed is tainted, and its replacement
		// (create_before_destroy included) claims the same server again by
		// its key: its claim stays open to that within the window.
		h.acc.ConfirmOnRefresh(ctx, m, state.Claim.ValueString())
	}
	r.noteMarkLost(ctx, &resp.Diagnostics, resp.Private, h, state, m)
	state.setMachine(m, state.progress().HostKey)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// takeImported fills what an import can learn: the machine's claim and
// name, and phase ready, since an imported host is taken as it is and
// nothing is installed on it.
func takeImported(state *model, m adapter.Machine) {
	state.Claim = optional(m.Claim)
	if state.Hostname.IsNull() && m.Name != "" {
		state.Hostname = types.StringValue(m.Name)
	}
	if state.OfferID.IsNull() && state.MachineID.IsNull() {
		state.MachineID = types.StringValue(m.ID)
	}
	state.Phase = types.StringValue(string(adapter.PhaseReady))
	state.Disks = types.StringNull()
}

// ImportState takes ACCOUNT_ID/MACHINE_ID, or an identity, as
// compute_instance does (tfidentity.Target). The
// host is taken as it is: the first refresh records phase ready and the
// machine's claim, and the first apply records the configuration (image,
// files, first_boot and the rest, which cannot be read back) without
// replacing or installing anything.
func (r *Resource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	loc, machineID, ok := tfidentity.Import(ctx, req, resp, r.accounts, "bootstrap host")
	if !ok {
		return
	}
	if !r.canBootstrap(loc, machineID, &resp.Diagnostics) {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("machine_id"), types.StringValue(machineID))...)
	resp.Diagnostics.Append(mark(ctx, resp.Private, privateImported, true)...)
	resp.Diagnostics.Append(mark(ctx, resp.Private, privateAdopting, true)...)
}

// canBootstrap refuses, at import, a machine on an account whose adapter
// cannot bootstrap hosts: it is a compute_instance's to import.
func (r *Resource) canBootstrap(loc adapter.Locator, machineID string, diags *diag.Diagnostics) bool {
	def, err := r.registry.Definition(loc.Kind)
	if err != nil || def.Capabilities.Has(adapter.CapBootstrap) {
		return true
	}
	diags.AddError("Unable to import bootstrap host", fmt.Sprintf("The import names %s, and the %s adapter cannot "+
		"bootstrap hosts, so machine %s is no bootstrap host. Import it as a compute_instance (`import { to = compute_instance.NAME "+
		"... }`), or name an account whose adapter bootstraps hosts.%s", r.registry.Describe(loc), def.Kind, machineID, bootstrapKinds(r.registry)))
	return false
}
