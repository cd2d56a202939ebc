package power

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tftimeouts"
)

// DefaultShutdownTimeout is how long a graceful shutdown or reboot may take
// by default: what bpg/proxmox and the hypervisors' own tools give a guest.
const DefaultShutdownTimeout = time.Minute

// PollBackoff paces waits for a machine to settle that read it directly:
// machines take seconds to minutes, so polls start at one second and level
// off at ten.
var PollBackoff = adapter.Backoff{Initial: time.Second, Max: 10 * time.Second}

// RoundBackoff paces a wait whose checks join the account's shared listing
// rounds (adapter.Cached.Poll), which the contract already spaces
// (adapter.PollInterval, stretched as the rate budget runs out): for its
// first half minute a wait joins the next round at once, so it sees every
// round. A wait that slept its own second on top of the rounds' spacing saw
// one round in two, and a machine that ran after 5s was seen at 7s, once
// per wave of an apply. Checking every round costs the API nothing per
// machine: one listing serves every wait of the round.
var RoundBackoff = adapter.Backoff{Initial: 50 * time.Millisecond, Max: 10 * time.Second, Steady: 30}

// Goal is where Path.To brings a machine.
type Goal int

// The goals.
const (
	On Goal = iota
	Off
	Restarted
)

// State is the settled state a goal ends in.
func (g Goal) State() adapter.State {
	if g == Off {
		return adapter.StateStopped
	}
	return adapter.StateRunning
}

func (g Goal) String() string {
	return [...]string{"on", "off", "restarted"}[g]
}

// Path switches machines on the injected clock.
type Path struct {
	Clock adapter.Clock
	// Reads, when set, is how the path retries, as reads made while
	// planning do: an endpoint that cannot be reached at all
	// (adapter.Unreachable) is given up after Reads.Unreachable, so an action
	// a user invoked gives up on a dead API within that. Nil keeps the rule
	// of applies, which retry it until the operation's timeout, since a
	// create half done must not be abandoned.
	Reads *adapter.ReadPolicy
}

// To brings the machine to goal and waits until it has settled there. bound
// is shutdown_timeout; the fallbacks it leads to are warned about in diags.
func (p Path) To(ctx context.Context, acc *adapter.Cached, id string, goal Goal, bound time.Duration, diags *diag.Diagnostics) (adapter.Machine, error) {
	var err error
	var settled *adapter.Machine
	switch goal {
	case On:
		err = p.Do(ctx, acc, id, adapter.PowerOn)
	case Off:
		settled, err = p.shutDown(ctx, acc, id, bound, diags)
	case Restarted:
		err = p.restart(ctx, acc, id, bound, diags)
	}
	if err != nil {
		return adapter.Machine{ID: id}, err
	}
	if settled != nil {
		// The graceful shutdown's own wait saw it off.
		return *settled, nil
	}
	m, err := p.Wait(ctx, acc, id, goal.State())
	return WithID(m, id), err
}

// shutDown asks the guest to shut down and, once the backend has delivered
// the request, waits up to bound for the machine to be stopped, then cuts
// the power. A bound of zero, or an adapter without a graceful shutdown,
// cuts it at once. It returns the machine as its wait saw it stopped, nil
// when it did not see it so.
func (p Path) shutDown(ctx context.Context, acc *adapter.Cached, id string, bound time.Duration, diags *diag.Diagnostics) (*adapter.Machine, error) {
	if bound <= 0 || !acc.Capabilities().Offers(adapter.PowerShutdown) {
		return nil, p.Do(ctx, acc, id, adapter.PowerOff)
	}
	// The bound is the guest's time to act once it has the request.
	if err := p.Do(ctx, acc, id, adapter.PowerShutdown); err != nil {
		return nil, err
	}
	var m adapter.Machine
	err := p.within(ctx, bound, func(ctx context.Context, arm func()) (err error) {
		arm()
		m, err = p.Wait(ctx, acc, id, adapter.StateStopped)
		return err
	})
	if err == nil {
		return &m, nil
	}
	if !errors.Is(err, errBoundPassed) {
		return nil, err
	}
	fellBack(ctx, diags, id, bound, "Machine powered off hard",
		fmt.Sprintf("Machine %s was asked to shut down and was not off within shutdown_timeout (%s), so its power was cut. "+
			"If the guest needs longer to stop its services, raise shutdown_timeout; if it ignores shutdown requests (ACPI), "+
			"set shutdown_timeout = \"0s\" to power it off at once.", id, tftimeouts.Short(bound)))
	return nil, p.Do(ctx, acc, id, adapter.PowerOff)
}

// restart asks the guest to reboot, bounded like a shutdown, and resets the
// machine when the reboot is not done in time or the adapter has none.
func (p Path) restart(ctx context.Context, acc *adapter.Cached, id string, bound time.Duration, diags *diag.Diagnostics) error {
	reboot, reset := acc.Capabilities().Offers(adapter.PowerReboot), acc.Capabilities().Offers(adapter.PowerReset)
	switch {
	case !reboot || (bound <= 0 && reset):
		return p.Do(ctx, acc, id, adapter.PowerReset)
	case !reset:
		// Nothing to fall back on: the reboot takes the time it takes.
		return p.Do(ctx, acc, id, adapter.PowerReboot)
	}
	// As for a shutdown, the bound is the guest's time to act once it has
	// the request: it starts when the first reboot request is answered, so
	// a slow API (or a busy machine) never spends it before the guest was
	// asked at all, and no reset is sent without a reboot before it.
	err := p.within(ctx, bound, func(ctx context.Context, arm func()) error {
		return p.retry(ctx, acc, fmt.Sprintf("%s machine %s", adapter.PowerReboot.Verb(), id), func(ctx context.Context) error {
			defer arm()
			return acc.Power(ctx, id, adapter.PowerReboot)
		})
	})
	if !errors.Is(err, errBoundPassed) {
		return err
	}
	fellBack(ctx, diags, id, bound, "Machine reset hard",
		fmt.Sprintf("Machine %s was asked to reboot and the reboot was not done within shutdown_timeout (%s), so it was reset: "+
			"its power was cut and it was started again. If the guest needs longer, raise shutdown_timeout; "+
			"set shutdown_timeout = \"0s\" to reset it at once.", id, tftimeouts.Short(bound)))
	return p.Do(ctx, acc, id, adapter.PowerReset)
}

// errBoundPassed is how within tells that the bound, not the operation's
// own context, ended fn.
var errBoundPassed = errors.New("shutdown_timeout passed")

// within runs fn with a ctx that the bound ends d after fn first calls arm
// (later calls do nothing), on the injected clock. It returns
// errBoundPassed when the bound ended fn before fn succeeded, and fn's own
// error otherwise: the operation's timeout and Ctrl-C are never a fallback.
func (p Path) within(ctx context.Context, d time.Duration, fn func(ctx context.Context, arm func()) error) error {
	bctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var once sync.Once
	arm := func() {
		once.Do(func() {
			passed := p.Clock.After(d)
			go func() {
				select {
				case <-passed:
					cancel(errBoundPassed)
				case <-bctx.Done():
				}
			}()
		})
	}
	err := fn(bctx, arm)
	if err != nil && ctx.Err() == nil && errors.Is(context.Cause(bctx), errBoundPassed) {
		return errBoundPassed
	}
	return err
}

// fellBack warns, and logs, that a graceful action was given up for a hard one.
func fellBack(ctx context.Context, diags *diag.Diagnostics, id string, bound time.Duration, summary, detail string) {
	adapter.LoggerFrom(ctx).Warn(ctx, summary, map[string]any{"machine_id": id, "shutdown_timeout": tftimeouts.Short(bound)})
	diags.AddWarning(summary, detail)
}

// Do asks the backend for one power action, retrying what is worth
// retrying, and returns once the backend took it; it does not wait for the
// machine to settle.
func (p Path) Do(ctx context.Context, acc *adapter.Cached, id string, action adapter.PowerAction) error {
	return p.retry(ctx, acc, fmt.Sprintf("%s machine %s", action.Verb(), id), func(ctx context.Context) error {
		return acc.Power(ctx, id, action)
	})
}

// retry runs fn until it succeeds, fails with a code that is not retried,
// or ctx ends; with Reads set, an endpoint that cannot be reached is given
// up after Reads.Unreachable. Nothing reached such an endpoint, so giving up on
// it leaves nothing half sent.
func (p Path) retry(ctx context.Context, acc *adapter.Cached, what string, fn func(context.Context) error) error {
	if p.Reads != nil {
		return acc.PlanRead(ctx, *p.Reads, what, fn)
	}
	return adapter.Retry(ctx, p.Clock, adapter.DefaultBackoff, what, fn)
}

// Wait polls the machine, as fresh as a direct read, until it reaches one
// of wants; running also needs an address. A machine in state error, or
// gone, ends the wait at once. Each check reports the state it saw
// (adapter.ReportState), which a wait that lasts logs.
func (p Path) Wait(ctx context.Context, acc *adapter.Cached, id string, wants ...adapter.State) (adapter.Machine, error) {
	names := make([]string, len(wants))
	for i, w := range wants {
		names[i] = string(w)
	}
	want := strings.Join(names, " or ")
	var last adapter.Machine
	schedule := PollBackoff
	if acc.SharedPolls() {
		schedule = RoundBackoff
	}
	// A read that gave up on an unreachable endpoint ends the wait with its
	// own error, which the wait would otherwise retry as a failure.
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	var gaveUp error
	err := adapter.WaitFor(wctx, p.Clock, schedule, fmt.Sprintf("machine %s to be %s", id, want), func(ctx context.Context) (bool, error) {
		// Every wait on the account shares one read per round.
		m, err := p.read(ctx, acc, id, acc.Poll)
		if err != nil {
			if p.Reads != nil && adapter.Unreachable(err) && ctx.Err() == nil {
				gaveUp = err
				stop()
				return false, err
			}
			if adapter.IsNotFound(err) {
				return false, &adapter.Error{Code: adapter.InvalidState, Err: err,
					Message: fmt.Sprintf("machine %s disappeared while waiting for it to be %s", id, want)}
			}
			return false, err
		}
		last = m
		// The raw state as is: it is the backend's status word, which state
		// keeps in raw_state anyway, and often says why the wait goes on.
		adapter.ReportState(ctx, fmt.Sprintf("%s (raw: %s)", m.State, m.RawState))
		switch {
		case m.State == adapter.StateError:
			return false, adapter.Errorf(adapter.InvalidState, "machine %s is in state error (backend status %q)", id, m.RawState)
		case slices.Contains(wants, m.State) && (m.State != adapter.StateRunning || m.HasAddress()):
			return true, nil
		}
		return false, nil
	})
	if gaveUp != nil {
		return last, gaveUp
	}
	return last, err
}

// Fresh is a direct read that bypasses the listing: the waits and
// read-backs of an apply, which must see the machine as it is now. Being
// part of an apply, it rides out what writes ride out, an unreachable
// endpoint included, until the operation's timeout.
func (p Path) Fresh(ctx context.Context, acc *adapter.Cached, id string) (adapter.Machine, error) {
	return p.read(ctx, acc, id, acc.Fresh)
}

// read reads the machine with get, retrying what the writes retry.
func (p Path) read(ctx context.Context, acc *adapter.Cached, id string, get func(context.Context, string) (adapter.Machine, error)) (adapter.Machine, error) {
	var m adapter.Machine
	err := p.retry(ctx, acc, "read machine "+id, func(ctx context.Context) error {
		var err error
		m, err = get(ctx, id)
		return err
	})
	return m, err
}

// WithID keeps the id in messages when a wait ended before any read.
func WithID(m adapter.Machine, id string) adapter.Machine {
	if m.ID == "" {
		m.ID = id
	}
	return m
}

// CanRestart reports whether caps let a machine be restarted in place.
func CanRestart(caps adapter.Capabilities) bool {
	return caps.Offers(adapter.PowerReboot) || caps.Offers(adapter.PowerReset)
}
