package instance

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
	"github.com/seedcompute/terraform-provider-compute/internal/tfidentity"
	"github.com/seedcompute/terraform-provider-compute/internal/tfmodel"
	"github.com/seedcompute/terraform-provider-compute/internal/tftimeouts"
)

// Read refreshes the machine through the account's shared listing, so a
// refresh of many instances costs one listing, retrying what the backend
// may get over until the read timeout. Only authoritative absence removes
// the machine from state; any other failure keeps the state and fails the
// refresh. A machine another state has taken over is not refreshed: the
// warning says so and what to do.
func (r *Resource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	ctx = r.accounts.Logging(ctx)
	defer tfidentity.Follow(ctx, resp.Identity, &resp.Diagnostics, &resp.State, &req.State)
	const summary = "Unable to read instance"
	var state model
	resp.Diagnostics.Append(tfmodel.Get(ctx, req.State.Schema.Type(), req.State.Raw, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, d := tftimeouts.Of(state.Timeouts.Object, "read", defaultReadTimeout)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	acc, loc, machineID, ok := r.target(&resp.Diagnostics, summary, state)
	if !ok {
		return
	}
	m, err := r.read(ctx, acc, machineID, tftimeouts.UnreachableOf(state.Timeouts.Object, adapter.DefaultUnreachable))
	if err != nil {
		if imported(ctx, req.Private) && tfidentity.ImportReadFailed(&resp.Diagnostics, "instance", machineID, r.accounts.Registry.Describe(loc), err) {
			return
		}
		def, _ := r.accounts.Registry.Definition(loc.Kind)
		readFailed(ctx, state, r.accounts.Registry.Describe(loc), tfdiag.Endpoint(def, loc.Settings, r.accounts.Registry.Environment()), machineID, err, resp)
		return
	}
	if !stillHeld(ctx, req.Private, resp, &state, &m, machineID, r.accounts.Registry.Label(loc), r.clock().Now()) {
		return
	}
	acc.ConfirmOnRefresh(ctx, m, state.Claim.ValueString())
	r.warnMarkLost(&resp.Diagnostics, state, m, machineID)
	resp.Diagnostics.Append(state.setMachine(ctx, m)...)
	resp.Diagnostics.Append(tfmodel.Set(ctx, &resp.State, resp.State.Schema.Type(), &state)...)
}

// stillHeld reports whether this state still holds the machine it read, and
// records the answer for the plan. After an import, it takes the machine's
// claim first.
// account names the account for the warning.
func stillHeld(ctx context.Context, from privateGetter, resp *resource.ReadResponse, state *model, m *adapter.Machine, machineID, account string, now time.Time) bool {
	if imported(ctx, from) {
		// An import takes the machine as it is, claim included, so it plans
		// clean and notices a later adoption elsewhere. Import a machine into
		// one state at a time: a claim may be another state's, which may
		// still list it (tfidentity.WarnImportedClaim).
		tfidentity.WarnImportedClaim(&resp.Diagnostics, *m, machineID, account, now)
		state.Claim = optional(m.Claim)
		resp.Diagnostics.Append(endImport(ctx, resp.Private)...)
	}
	claim := state.Claim.ValueString()
	if adapter.Resumable(*m, claim, now) {
		// The first apply after the import marked the machine and was
		// killed before its state was saved (or another state's did so
		// within the hour, which a create's rerun would adopt as well). Read
		// it as not yet marked by this state, so the plan writes the mark
		// again, with a claim of this state's, as it did before.
		m.Managed = false
		resp.Diagnostics.Append(setLost(ctx, resp.Private, false)...)
		return true
	}
	if !adapter.Held(*m, claim) {
		// Another state adopted the machine. Keep what this state last
		// knew, so its plan shows no changes it could not make, and say so
		// on every plan until the resource is removed.
		resp.Diagnostics.AddWarning("Instance held by another state", tfdiag.Message(adapter.LostHold(machineID, state.Name.ValueString(), account)))
		resp.Diagnostics.Append(setLost(ctx, resp.Private, true)...)
		return false
	}
	resp.Diagnostics.Append(setLost(ctx, resp.Private, false)...)
	return true
}

// readFailed reports a refresh that found no machine: gone, it leaves the
// state with a warning; otherwise the state is kept and the reason given.
// account names the account for messages, endpoint is its endpoint, for a
// failure to reach it.
func readFailed(ctx context.Context, state model, account, endpoint, machineID string, err error, resp *resource.ReadResponse) {
	const summary = "Unable to read instance"
	switch {
	case adapter.IsNotFound(err):
		resp.Diagnostics.AddWarning("Instance is gone",
			fmt.Sprintf("Machine %s (%q) no longer exists on %s: %s\n\nIt was removed from the state; the next apply creates it again.",
				machineID, state.Name.ValueString(), account, tfdiag.Message(err)))
		resp.State.RemoveResource(ctx)
	case tfdiag.UnknownUntilApply(err):
		resp.Diagnostics.AddWarning("Instance not refreshed",
			fmt.Sprintf("Machine %s (%q) was not refreshed because the account's secret comes from the provider block's secrets, which are not known until apply.",
				machineID, state.Name.ValueString()))
	case adapter.Is(err, adapter.InvalidConfig):
		// A refresh reads through the account recorded in state, not the
		// configured one: a secret reference changed in the configuration
		// and already gone from the environment fails here, and fixing the
		// configuration alone cannot help.
		tfdiag.AddError(&resp.Diagnostics, nil, summary,
			fmt.Sprintf("Reading machine %s (%q) through the account recorded in state (%s) failed; the state is kept as it was. "+
				"A refresh uses the account settings recorded in state. If the configuration now gives the instance's account other settings "+
				"(another secret reference, say), keep the recorded ones working for one more run, or run terraform apply -refresh=false once "+
				"so the new account is recorded; otherwise fix the account's settings or the provider block's secrets.",
				machineID, state.Name.ValueString(), account), err)
	case tfdiag.Unreachable(err):
		tfdiag.AddError(&resp.Diagnostics, nil, summary,
			fmt.Sprintf("Reading machine %s (%q) on %s failed. %s", machineID, state.Name.ValueString(), account, tfdiag.UnreachableWayOut(endpoint, err)), err)
	default:
		tfdiag.AddError(&resp.Diagnostics, nil, summary,
			fmt.Sprintf("Reading machine %s (%q) on %s failed; the state is kept as it was. %s", machineID, state.Name.ValueString(), account, tfdiag.WayOut(err)), err)
	}
}

// ImportState takes ACCOUNT_ID/MACHINE_ID, or an identity
// (tfidentity.Target). It records the id and account; Read fills the rest.
// user_data_sha256 stays null, since the user data a machine was created
// with cannot be read back.
func (r *Resource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	if _, _, ok := tfidentity.Import(ctx, req, resp, r.accounts, "instance"); ok {
		resp.Diagnostics.Append(markImported(ctx, resp.Private)...)
	}
}
