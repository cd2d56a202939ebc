package bootstrap

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
)

// Delete releases the machine through the adapter's Delete: the claim is
// taken off it, and the rental is cancelled only when the account says so
// (its adapter decides). The machine itself goes on existing, so nothing
// waits for it to be gone. Already gone is done; a machine another state
// holds now is forgotten, not released; one a create of this same run
// claimed again (the replacement of a tainted host under the same
// hostname) is left to the new host, which holds it.
func (r *Resource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	ctx = r.accounts.Logging(ctx)
	const summary = "Unable to release bootstrap host"
	var state model
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := withTimeout(ctx, state.Timeouts, "delete", defaultDeleteTimeout)
	defer cancel()
	h, machineID, ok := r.target(&resp.Diagnostics, summary, state)
	if !ok {
		return
	}
	hostname, claim := state.Hostname.ValueString(), state.Claim.ValueString()
	m, err := r.retryRead(ctx, machineID, h.acc.Fresh)
	switch {
	case err != nil || adapter.Held(m, claim):
	case adapter.Resumable(m, claim, r.clock().Now()):
		err = adapter.UnsavedClaim(machineID, hostname, "released")
	default:
		err = adapter.LostHold(machineID, hostname, r.registry.Label(h.loc))
	}
	if prior, adopted := h.acc.AdoptedHere(machineID); adopted && prior == claim && (err == nil || errors.Is(err, adapter.ErrLostHold)) {
		// The replacement claimed it again: it is the new host's now.
		return
	}
	switch {
	case adapter.IsNotFound(err):
		return
	case errors.Is(err, adapter.ErrLostHold):
		resp.Diagnostics.AddWarning("Bootstrap host forgotten, not released",
			fmt.Sprintf("Machine %s (host %q) was removed from this state and left as it is: %s", machineID, hostname, tfdiag.Message(err)))
		return
	}
	if err == nil {
		err = adapter.Retry(ctx, r.clock(), adapter.DefaultBackoff, "release machine "+machineID, func(ctx context.Context) error {
			err := h.acc.Delete(ctx, machineID)
			if adapter.IsNotFound(err) {
				return nil
			}
			return err
		})
	}
	if err != nil {
		tfdiag.AddError(&resp.Diagnostics, nil, summary,
			fmt.Sprintf("Releasing machine %s (host %q) failed; it stays in the state. %s", machineID, hostname, tfdiag.WayOut(err)), err)
	}
}
