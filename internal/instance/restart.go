package instance

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/power"
	"github.com/seedcompute/terraform-provider-compute/internal/tftimeouts"
)

// What a plan asks of the machine's power: a switch when power changes, a
// restart when triggers_restart changes from one set of values to another.
// Values set for the first time (also after an import, which cannot read
// them) or removed restart nothing, as a trigger that did not exist before
// cannot have changed.

// restartRequested reports whether the plan changes triggers_restart from
// values to other values; unknown values may turn out to differ.
func restartRequested(plan, state model) bool {
	if state.TriggersRestart.IsNull() || state.TriggersRestart.IsUnknown() || len(state.TriggersRestart.Elements()) == 0 {
		return false
	}
	if plan.TriggersRestart.IsUnknown() {
		return true
	}
	if plan.TriggersRestart.IsNull() || len(plan.TriggersRestart.Elements()) == 0 {
		return false
	}
	return !plan.TriggersRestart.Equal(state.TriggersRestart)
}

// powerChange is what Update does to the machine's power, if anything. A
// switch wins over a restart: a machine switched on boots afresh, one
// switched off needs no restart. A machine that is not running is not
// restarted: a restart never starts a machine.
func powerChange(ctx context.Context, plan, state model, current adapter.Machine) (power.Goal, bool) {
	switch {
	case !plan.Power.Equal(state.Power):
		return goalOf(plan.Power.ValueString()), true
	case !restartRequested(plan, state):
		return 0, false
	case current.State != adapter.StateRunning:
		adapter.LoggerFrom(ctx).Info(ctx, "triggers_restart changed, but the machine is not running: nothing to restart",
			map[string]any{"machine_id": current.ID, "state": string(current.State)})
		return 0, false
	}
	return power.Restarted, true
}

// refuseRestart refuses, at plan, a restart the account's adapter cannot do.
func refuseRestart(plan, state *model, def adapter.Definition, diags *diag.Diagnostics) {
	if !restartRequested(*plan, *state) || power.CanRestart(def.Capabilities) {
		return
	}
	diags.AddAttributeError(path.Root("triggers_restart"), "Unable to restart machine",
		fmt.Sprintf("triggers_restart changes, which restarts the machine in place, but the %s adapter cannot restart machines "+
			"(it offers %s). Set triggers_restart back to its previous values, or replace the machine instead with "+
			"lifecycle { replace_triggered_by = [...] }.", def.Kind, def.Capabilities))
}

// checkShutdownBound refuses, at plan, a shutdown_timeout that is not
// shorter than an operation it runs in: the operation would time out before
// the fallback could cut the power. Every update may power the machine off;
// a create does only for a machine created off.
func checkShutdownBound(plan *model, creating bool, diags *diag.Diagnostics) {
	if !known(plan.ShutdownTimeout) || plan.Timeouts.IsUnknown() {
		return
	}
	bound := plan.shutdownTimeout()
	update, d := tftimeouts.Of(plan.Timeouts.Object, "update", defaultUpdateTimeout)
	ops := map[string]time.Duration{"update": update}
	if creating && plan.Power.ValueString() == powerOff {
		create, dc := tftimeouts.Of(plan.Timeouts.Object, "create", defaultCreateTimeout)
		d.Append(dc...)
		ops["create"] = create
	}
	if d.HasError() {
		return
	}
	for _, op := range []string{"create", "update"} {
		timeout, ok := ops[op]
		if !ok || bound < timeout {
			continue
		}
		diags.AddAttributeError(path.Root("shutdown_timeout"), "Unable to use shutdown_timeout",
			fmt.Sprintf("shutdown_timeout = %q is not shorter than timeouts.%s (%s): the %s would time out before the power could be cut. "+
				"Lower shutdown_timeout, or raise timeouts.%s above it.",
				plan.ShutdownTimeout.ValueString(), op, tftimeouts.Short(timeout), op, op))
		return
	}
}
