package instance

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tftimeouts"
)

// The one power path. Off is graceful first: the guest is asked to shut down
// and given shutdown_timeout to be off before its power is cut. A restart
// (a change of triggers_restart) is graceful first as well: a reboot request,
// bounded the same way, then a hard reset. Each fallback is warned about and
// logged, since it may have cost the guest unsaved work.

// defaultShutdownTimeout is how long a graceful shutdown or reboot may take
// by default: what bpg/proxmox and the hypervisors' own tools give a guest.
const defaultShutdownTimeout = time.Minute

// powerGoal is where powerTo brings a machine.
type powerGoal int

const (
	goalOn powerGoal = iota
	goalOff
	goalRestarted
)

// goalOf is the goal of a power attribute value.
func goalOf(power string) powerGoal {
	if power == powerOff {
		return goalOff
	}
	return goalOn
}

// state is the settled state a goal ends in.
func (g powerGoal) state() adapter.State {
	if g == goalOff {
		return adapter.StateStopped
	}
	return adapter.StateRunning
}

func (g powerGoal) String() string {
	return [...]string{"on", "off", "restarted"}[g]
}

// powerTo brings the machine to goal and waits until it has settled there:
// the one power path of create, adoption, update and restart alike. bound
// is shutdown_timeout; the fallbacks it leads to are warned about in diags.
func (r *Resource) powerTo(ctx context.Context, acc *adapter.Cached, id string, goal powerGoal, bound time.Duration, diags *diag.Diagnostics) (adapter.Machine, error) {
	var err error
	var settled *adapter.Machine
	switch goal {
	case goalOn:
		err = r.power(ctx, acc, id, adapter.PowerOn)
	case goalOff:
		settled, err = r.shutDown(ctx, acc, id, bound, diags)
	case goalRestarted:
		err = r.restart(ctx, acc, id, bound, diags)
	}
	if err != nil {
		return adapter.Machine{ID: id}, err
	}
	if settled != nil {
		// The graceful shutdown's own wait saw it off.
		return *settled, nil
	}
	m, err := r.waitState(ctx, acc, id, goal.state())
	return withID(m, id), err
}

// shutDown asks the guest to shut down and, once the backend has delivered
// the request, waits up to bound for the machine to be stopped, then cuts
// the power. A bound of zero, or an adapter without a graceful shutdown,
// cuts it at once. It returns the machine as its wait saw it stopped, nil
// when it did not see it so.
func (r *Resource) shutDown(ctx context.Context, acc *adapter.Cached, id string, bound time.Duration, diags *diag.Diagnostics) (*adapter.Machine, error) {
	if bound <= 0 || !acc.Capabilities().Offers(adapter.PowerShutdown) {
		return nil, r.power(ctx, acc, id, adapter.PowerOff)
	}
	// The bound is the guest's time to act once it has the request.
	if err := r.power(ctx, acc, id, adapter.PowerShutdown); err != nil {
		return nil, err
	}
	var m adapter.Machine
	err := r.within(ctx, bound, func(ctx context.Context) (err error) {
		m, err = r.waitState(ctx, acc, id, adapter.StateStopped)
		return err
	})
	if err == nil {
		return &m, nil
	}
	if !errors.Is(err, errBoundPassed) {
		return nil, err
	}
	r.fellBack(ctx, diags, id, bound, "Machine powered off hard",
		fmt.Sprintf("Machine %s was asked to shut down and was not off within shutdown_timeout (%s), so its power was cut. "+
			"If the guest needs longer to stop its services, raise shutdown_timeout; if it ignores shutdown requests (ACPI), "+
			"set shutdown_timeout = \"0s\" to power it off at once.", id, tftimeouts.Short(bound)))
	return nil, r.power(ctx, acc, id, adapter.PowerOff)
}

// restart asks the guest to reboot, bounded like a shutdown, and resets the
// machine when the reboot is not done in time or the adapter has none.
func (r *Resource) restart(ctx context.Context, acc *adapter.Cached, id string, bound time.Duration, diags *diag.Diagnostics) error {
	reboot, reset := acc.Capabilities().Offers(adapter.PowerReboot), acc.Capabilities().Offers(adapter.PowerReset)
	switch {
	case !reboot || (bound <= 0 && reset):
		return r.power(ctx, acc, id, adapter.PowerReset)
	case !reset:
		// Nothing to fall back on: the reboot takes the time it takes.
		return r.power(ctx, acc, id, adapter.PowerReboot)
	}
	err := r.within(ctx, bound, func(ctx context.Context) error { return r.power(ctx, acc, id, adapter.PowerReboot) })
	if !errors.Is(err, errBoundPassed) {
		return err
	}
	r.fellBack(ctx, diags, id, bound, "Machine reset hard",
		fmt.Sprintf("Machine %s was asked to reboot and the reboot was not done within shutdown_timeout (%s), so it was reset: "+
			"its power was cut and it was started again. If the guest needs longer, raise shutdown_timeout; "+
			"set shutdown_timeout = \"0s\" to reset it at once.", id, tftimeouts.Short(bound)))
	return r.power(ctx, acc, id, adapter.PowerReset)
}

// errBoundPassed is how within tells that the bound, not the operation's
// own context, ended fn.
var errBoundPassed = errors.New("shutdown_timeout passed")

// within runs fn with ctx bounded by d on the injected clock. It returns
// errBoundPassed when the bound ended fn before fn succeeded, and fn's own
// error otherwise: the operation's timeout and Ctrl-C are never a fallback.
func (r *Resource) within(ctx context.Context, d time.Duration, fn func(context.Context) error) error {
	bctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	passed := r.clock().After(d)
	go func() {
		select {
		case <-passed:
			cancel(errBoundPassed)
		case <-bctx.Done():
		}
	}()
	err := fn(bctx)
	if err != nil && ctx.Err() == nil && errors.Is(context.Cause(bctx), errBoundPassed) {
		return errBoundPassed
	}
	return err
}

// fellBack warns, and logs, that a graceful action was given up for a hard one.
func (r *Resource) fellBack(ctx context.Context, diags *diag.Diagnostics, id string, bound time.Duration, summary, detail string) {
	adapter.LoggerFrom(ctx).Warn(ctx, summary, map[string]any{"machine_id": id, "shutdown_timeout": tftimeouts.Short(bound)})
	diags.AddWarning(summary, detail)
}

// power asks the backend for one power action, retrying what is worth
// retrying; powerTo is its only caller.
func (r *Resource) power(ctx context.Context, acc *adapter.Cached, id string, action adapter.PowerAction) error {
	return adapter.Retry(ctx, r.clock(), adapter.DefaultBackoff, fmt.Sprintf("%s machine %s", action.Verb(), id), func(ctx context.Context) error {
		return acc.Power(ctx, id, action)
	})
}

// withID keeps the id in messages when a wait ended before any read.
func withID(m adapter.Machine, id string) adapter.Machine {
	if m.ID == "" {
		m.ID = id
	}
	return m
}

// canRestart reports whether caps let a machine be restarted in place.
func canRestart(caps adapter.Capabilities) bool {
	return caps.Offers(adapter.PowerReboot) || caps.Offers(adapter.PowerReset)
}
