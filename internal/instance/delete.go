package instance

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/resource"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/power"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
	"github.com/seedcompute/terraform-provider-compute/internal/tfmodel"
)

// Delete removes the machine and waits until the backend says it is gone.
// Already gone is done. A machine another state has taken over is forgotten,
// not deleted, with a warning: this state no longer holds it. A machine a
// create of this same run took over (create_before_destroy under the same
// name) is neither: the error says so and the object stays, until the next
// apply forgets it. A machine without the provider's mark is refused by the
// adapter and stays, with the way out in the error.
func (r *Resource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	ctx = r.accounts.Logging(ctx)
	const summary = "Unable to delete instance"
	var state model
	resp.Diagnostics.Append(tfmodel.Get(ctx, req.State.Schema.Type(), req.State.Raw, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, d := state.Timeouts.Delete(ctx, defaultDeleteTimeout)
	resp.Diagnostics.Append(d...)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	acc, loc, machineID, ok := r.target(&resp.Diagnostics, summary, state)
	if !ok {
		return
	}
	name := state.Name.ValueString()
	claim := state.Claim.ValueString()
	_, err := r.heldMachine(ctx, acc, machineID, name, claim, "")
	switch {
	case adapter.IsNotFound(err):
		return
	case (err == nil || errors.Is(err, adapter.ErrLostHold)) && adoptedFrom(acc, machineID, claim):
		tfdiag.AddError(&resp.Diagnostics, fields, summary, "", adapter.SelfAdopted(machineID, name))
		return
	case errors.Is(err, adapter.ErrLostHold):
		resp.Diagnostics.AddWarning("Instance forgotten, not deleted",
			fmt.Sprintf("Machine %s (%q) was removed from this state and left running: %s", machineID, name, tfdiag.Message(err)))
		return
	}
	if err == nil {
		err = r.deleteMachine(ctx, acc, machineID)
	}
	if err != nil {
		tfdiag.AddError(&resp.Diagnostics, nil, summary,
			fmt.Sprintf("Deleting machine %s (%q) on %s failed; it stays in the state. %s", machineID, name, r.accounts.Registry.Describe(loc),
				wayOutFor(err, machineID)), err)
	}
}

// deleteMachine deletes the machine, already gone counting as deleted, and
// waits until the backend says it is gone, or that it no longer carries the
// provider's mark: a backend that rents machines (Robot) keeps the server
// after a delete, which gives it back by taking the mark off, and waiting
// for it to vanish would wait forever.
func (r *Resource) deleteMachine(ctx context.Context, acc *adapter.Cached, machineID string) error {
	err := adapter.Retry(ctx, r.clock(), adapter.DefaultBackoff, fmt.Sprintf("delete machine %s", machineID), func(ctx context.Context) error {
		err := acc.Delete(ctx, machineID)
		if adapter.IsNotFound(err) {
			return nil
		}
		return err
	})
	if err != nil {
		return err
	}
	return adapter.WaitFor(ctx, r.clock(), power.PollBackoff, fmt.Sprintf("machine %s to be gone or released", machineID), func(ctx context.Context) (bool, error) {
		m, err := r.fresh(ctx, acc, machineID)
		if adapter.IsNotFound(err) {
			return true, nil
		}
		return err == nil && !m.Managed, err
	})
}

// adoptedFrom reports whether a create of this run adopted the machine from
// claim, the one this state object keeps.
func adoptedFrom(acc *adapter.Cached, machineID, claim string) bool {
	prior, ok := acc.AdoptedHere(machineID)
	return ok && prior == claim
}
