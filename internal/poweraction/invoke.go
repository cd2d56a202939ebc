package poweraction

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/power"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
)

// Invoke reads the machine directly, refuses it unless this state holds it
// (the rule Update keeps), and brings it where the action asks through the
// power path, waiting until it has settled there. A machine already there is
// left alone: switching on a running machine, or off a stopped one, asks
// the backend nothing.
func (a *Action) Invoke(ctx context.Context, req action.InvokeRequest, resp *action.InvokeResponse) {
	if a.accounts == nil {
		resp.Diagnostics.AddError(a.kind.Refused, "The provider is not configured; this is a bug in the provider.")
		return
	}
	say := func(string) {}
	if resp.SendProgress != nil {
		say = func(msg string) { resp.SendProgress(action.InvokeProgressEvent{Message: msg}) }
	}
	ctx = withProgress(a.accounts.Logging(ctx), say)
	c, t, ok, d := a.read(ctx, req.Config)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !ok || !known(t.Account, t.ID) || t.Claim.IsUnknown() {
		resp.Diagnostics.AddAttributeError(idPath, a.kind.Refused, "The instance's account, id and claim must be known when the action runs; "+
			"this is a bug in the provider or Terraform, since Terraform runs an action only once its configuration is known.")
		return
	}
	acc, def, ok := a.open(t, &resp.Diagnostics)
	if !ok || !a.capable(def, t, &resp.Diagnostics) {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout())
	defer cancel()
	p := power.Path{Clock: a.accounts.Env.Clock}
	id := t.ID.ValueString()
	m, err := p.Fresh(ctx, acc, id)
	if err != nil {
		a.failed(t, def, "reading it", err, resp)
		return
	}
	if !a.refuseHold(m, t, def, &resp.Diagnostics) {
		return
	}
	k := a.kind
	switch {
	case !k.rescue && settled(m, k):
		say(fmt.Sprintf("machine %s is %s already: nothing to %s", id, m.State, k.noun()))
		return
	case k.running && m.State != adapter.StateRunning:
		resp.Diagnostics.AddAttributeError(idPath, a.kind.Refused, fmt.Sprintf(
			"Machine %s (%q) is %s (backend status %q), and a %s acts on a running machine only: it never starts one. "+
				"Start it with compute_instance_power_on, or wait until the backend has finished what it is doing with it.",
			id, m.Name, m.State, m.RawState, k.noun()))
		return
	}
	if k.rescue {
		a.rescue(ctx, acc, t, def, m, say, resp)
		return
	}
	var bound time.Duration
	if k.graceful {
		bound = c.bound(t)
	}
	say(fmt.Sprintf("machine %s is %s: asking for %s, then waiting until it is %s", id, m.State, k.noun(), k.goal.State()))
	m, err = p.To(ctx, acc, id, k.goal, bound, &resp.Diagnostics)
	if err != nil {
		a.failed(t, def, "waiting for it to be "+string(k.goal.State()), err, resp)
		return
	}
	say(fmt.Sprintf("machine %s is %s (backend status %q)", id, m.State, m.RawState))
}

// rescue boots the machine into its rescue system through the adapter,
// which checks the hold again before it writes and waits until the rescue
// system answers.
func (a *Action) rescue(ctx context.Context, acc *adapter.Cached, t target, def adapter.Definition, m adapter.Machine, say func(string),
	resp *action.InvokeResponse) {
	id := t.ID.ValueString()
	say(fmt.Sprintf("machine %s is %s: booting it into its rescue system, then waiting until the rescue system answers on SSH", id, m.State))
	// Each step of a boot into rescue is safe to run again (an armed
	// activation is read back, a machine in rescue already is left there),
	// so what is worth retrying is retried whole.
	err := adapter.Retry(ctx, a.accounts.Env.Clock, adapter.DefaultBackoff, "boot machine "+id+" into rescue", func(ctx context.Context) (err error) {
		m, err = acc.Rescue(ctx, id, t.Claim.ValueString())
		return err
	})
	if err != nil {
		a.failed(t, def, "booting it into its rescue system", err, resp)
		return
	}
	say(fmt.Sprintf("machine %s runs its rescue system (backend status %q): log in as root with the account's SSH key", id, m.RawState))
}

// settled reports whether the machine is where a switch on or off would
// bring it; a restart is never settled.
func settled(m adapter.Machine, k kind) bool {
	switch k.goal {
	case power.On:
		return m.State == adapter.StateRunning
	case power.Off:
		return m.State == adapter.StateStopped
	}
	return false
}

// failed reports an invocation that failed while doing what.
func (a *Action) failed(t target, def adapter.Definition, doing string, err error, resp *action.InvokeResponse) {
	if adapter.IsNotFound(err) {
		resp.Diagnostics.AddAttributeError(idPath, a.kind.Refused, a.gone(t, def))
		return
	}
	tfdiag.AddError(&resp.Diagnostics, nil, a.kind.Refused, fmt.Sprintf("%s of machine %s on %s failed while %s. %s",
		a.kind.typeName(), t.ID.ValueString(), a.registry.DescribeID(t.Account.ValueString()), doing, tfdiag.WayOut(err)), err)
}
