package poweraction

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/power"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
	"github.com/seedcompute/terraform-provider-compute/internal/tftimeouts"
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
	c, t, acc, def, ok := a.target(ctx, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, c.timeout())
	defer cancel()
	reads := adapter.PlanReads(c.unreachable())
	p := power.Path{Clock: a.accounts.Env.Clock, Reads: &reads}
	id := t.ID.ValueString()
	m, err := p.Fresh(ctx, acc, id)
	if err != nil {
		a.failed(c, t, def, "reading it", err, resp)
		return
	}
	if !a.refuseHold(m, t, def, &resp.Diagnostics) {
		return
	}
	k := a.kind
	switch act, refusal := a.decide(power.WithID(m, id)); {
	case refusal != "":
		resp.Diagnostics.AddAttributeError(idPath, k.Refused, refusal)
		return
	case !act:
		say(fmt.Sprintf("machine %s is %s already: nothing to %s", id, m.State, k.verb()))
		return
	}
	if k.rescue {
		a.rescue(ctx, c, acc, t, def, m, say, resp)
		return
	}
	a.switchPower(ctx, p, c, acc, t, def, m, say, resp)
}

// switchPower brings machine m where the action asks through the power
// path p, and waits until it has settled there.
func (a *Action) switchPower(ctx context.Context, p power.Path, c config, acc *adapter.Cached, t target, def adapter.Definition,
	m adapter.Machine, say func(string), resp *action.InvokeResponse) {
	k, id := a.kind, t.ID.ValueString()
	var bound time.Duration
	if k.graceful {
		bound = c.bound(t)
	}
	say(fmt.Sprintf("machine %s is %s: asking for %s, then waiting until it is %s", id, m.State, k.noun(), k.goal.State()))
	m, err := p.To(ctx, acc, id, k.goal, bound, &resp.Diagnostics)
	if err != nil {
		a.failed(c, t, def, "waiting for it to be "+string(k.goal.State()), err, resp)
		return
	}
	say(fmt.Sprintf("machine %s is %s (backend status %q)", id, m.State, m.RawState))
}

// target is the configuration, the instance it names, and that instance's
// account and adapter, once the action may act on them: all known, and an
// adapter that offers the action.
func (a *Action) target(ctx context.Context, cfg tfsdk.Config, diags *diag.Diagnostics) (config, target, *adapter.Cached, adapter.Definition, bool) {
	c, t, ok, d := a.read(ctx, cfg)
	diags.Append(d...)
	if diags.HasError() {
		return c, t, nil, adapter.Definition{}, false
	}
	if !ok || !known(t.Account, t.ID) || t.Claim.IsUnknown() {
		diags.AddAttributeError(idPath, a.kind.Refused, "The instance's account, id and claim must be known when the action runs; "+
			"this is a bug in the provider or Terraform, since Terraform runs an action only once its configuration is known.")
		return c, t, nil, adapter.Definition{}, false
	}
	acc, def, ok := a.open(t, diags)
	if !ok || !a.capable(def, t, diags) {
		return c, t, nil, def, false
	}
	return c, t, acc, def, true
}

// decide is what the action does with machine m, which this state holds:
// act, leave it alone because it is already where the action would bring
// it, or refuse it (refusal says why).
func (a *Action) decide(m adapter.Machine) (act bool, refusal string) {
	switch {
	case !a.kind.rescue && settled(m, a.kind):
		return false, ""
	case a.kind.running && m.State != adapter.StateRunning:
		return false, a.notRunning(m) + " Start it with compute_instance_power_on, or wait until the backend has finished what it is doing with it."
	}
	return true, ""
}

// notRunning is the refusal of a restart of a machine that is not running.
func (a *Action) notRunning(m adapter.Machine) string {
	return fmt.Sprintf("Machine %s (%q) is %s (backend status %q), and a %s acts on a running machine only: it never starts one.",
		m.ID, m.Name, m.State, m.RawState, a.kind.noun())
}

// rescue boots the machine into its rescue system through the adapter,
// which checks the hold again before it writes and waits until the rescue
// system answers.
func (a *Action) rescue(ctx context.Context, c config, acc *adapter.Cached, t target, def adapter.Definition, m adapter.Machine,
	say func(string), resp *action.InvokeResponse) {
	id := t.ID.ValueString()
	// The backend decides what "runs it" means (adapter.NoteRescueWait).
	say(fmt.Sprintf("machine %s is %s: booting it into its rescue system, then waiting until it runs it", id, m.State))
	// One try, with no retry around it: the adapter retries each step until
	// ctx ends, and a boot into rescue run again whole after its wait ran
	// out would reset a machine that may be booting into rescue already.
	// The endpoint answered the read just before (an endpoint that cannot
	// be reached was given up there, after unreachable); from there on the
	// boot's retries have the action's timeout, as an apply's writes do:
	// given up after unreachable, it would leave rescue armed and perhaps
	// a reset under way, where an endpoint back within timeout lets it
	// finish. The `unreachable` attribute says so (unreachableOfRescue).
	m, err := acc.Rescue(ctx, id, t.Claim.ValueString())
	if err != nil {
		a.failed(c, t, def, "booting it into its rescue system", err, resp)
		return
	}
	say(fmt.Sprintf("machine %s runs its rescue system (backend status %q): %s", id, m.RawState, loginLine(def)))
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
func (a *Action) failed(c config, t target, def adapter.Definition, doing string, err error, resp *action.InvokeResponse) {
	if adapter.IsNotFound(err) {
		resp.Diagnostics.AddAttributeError(idPath, a.kind.Refused, a.gone(t, def))
		return
	}
	tfdiag.AddError(&resp.Diagnostics, nil, a.kind.Refused, fmt.Sprintf("%s of machine %s on %s failed while %s. %s",
		a.kind.typeName(), t.ID.ValueString(), a.registry.DescribeID(t.Account.ValueString()), doing, c.wayOut(def, err)), err)
}

// wayOut is the way out of a failed invocation: tfdiag.WayOut, but in the
// action's own terms where a bound of the action ended it. An action has
// `timeout` and `unreachable`, not a timeouts block. A setting of def that
// is not a secret is fixed in the account alone, never in the provider
// block's secrets.
func (c config) wayOut(def adapter.Definition, err error) string {
	switch {
	case adapter.CodeOf(err) == adapter.InvalidConfig && plainSetting(def, adapter.FieldOf(err)):
		return fmt.Sprintf("Fix the account's `%s` setting in its compute_provider_account, then invoke the action again.", adapter.FieldOf(err))
	case tfdiag.Unreachable(err):
		return fmt.Sprintf("The account's endpoint could not be reached (%s), so the action gave up on it after `unreachable` (now %s) "+
			"instead of retrying until `timeout` (now %s). Check that the endpoint is right and "+
			"reachable from where Terraform runs (its host name, a firewall or VPN, its TLS certificate), then invoke the action again: it "+
			"reads the machine before it acts. Set `unreachable` to retry for longer.", adapter.ErrorClass(err), tftimeouts.Short(c.unreachable()), tftimeouts.Short(c.timeout()))
	case adapter.NoAnswer(err), adapter.LimitPastTimeout(err):
		return tfdiag.WayOut(err)
	case adapter.CodeOf(err) == adapter.Transient:
		return fmt.Sprintf("The backend kept failing, or the machine was not where the action asked, until the action's `timeout` "+
			"(now %s) ran out. Invoke the action again later, or raise `timeout` to wait for longer.", tftimeouts.Short(c.timeout()))
	case adapter.CodeOf(err) == adapter.RateLimited:
		return fmt.Sprintf("The backend asked to slow down, and still did when the action's `timeout` (now %s) ran out. "+
			"Invoke the action again later, or raise `timeout` to wait for longer.", tftimeouts.Short(c.timeout()))
	}
	return tfdiag.WayOut(err)
}

// plainSetting reports whether name is a setting of def that holds no
// secret reference.
func plainSetting(def adapter.Definition, name string) bool {
	i := slices.IndexFunc(def.Settings, func(s adapter.Setting) bool { return s.Name == name })
	return name != "" && i >= 0 && !def.Settings[i].IsSecret()
}
