package robot

import (
	"context"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// A boot into rescue for an operator (adapter.Rescuer) is the bootstrap's
// rescue phase on its own: arm rescue with the account's SSH key, reset the
// hardware (resetArmed) and wait until the rescue system answers on SSH
// with the host key Robot announced. It only probes that key, which sends
// no credential, so it needs no ssh_private_key; the operator logs in with
// the account's key. The boot spends the activation, as Robot's does, so
// the machine's next reboot starts its disk again.

func init() {
	capabilities = append(capabilities, adapter.CapRescue)
}

var _ adapter.Rescuer = (*account)(nil)

// Rescue implements adapter.Rescuer.
func (a *account) Rescue(ctx context.Context, id, claim string) (adapter.Machine, error) {
	const what = "boot into rescue"
	// Refused before anything is read, as the plan refuses it.
	if err := a.def.Lacks(adapter.CapRescue, what, a.settings); err != nil {
		return adapter.Machine{}, err
	}
	// Each step retries on its own until ctx ends (retried, wait), and so
	// do these reads: the caller runs Rescue once. Running it again after
	// the wait's bound passed would reset a machine perhaps still booting
	// into rescue (rescue resets into an armed activation at once).
	var s server
	err := a.retried(ctx, "read server "+id, func(ctx context.Context) (err error) {
		s, _, err = a.managed(ctx, id, what)
		return err
	})
	if err != nil {
		return adapter.Machine{}, err
	}
	if err := adapter.RefuseUnheld(what, a.toMachine(s), claim); err != nil {
		return adapter.Machine{}, err
	}
	b := &run{a: a, s: s, report: func(adapter.Progress) {}, ssh: newDialer(a), pinOnly: true}
	defer b.closeSessions()
	b.p.Phase = adapter.PhaseRescue
	// The caller's timeout (the action's) is the wait's bound, named in its
	// message when it passes; the rescue phase's default without one. What
	// is left of it is counted on the account's clock from now.
	now := a.clock.Now()
	limit := DefaultTimeouts[adapter.PhaseRescue]
	if end, ok := ctx.Deadline(); ok {
		limit = end.Sub(now)
	}
	b.req.Timeouts = map[adapter.Phase]time.Duration{adapter.PhaseRescue: limit}
	b.phaseEnd = now.Add(limit)
	a.c.Log.Info(ctx, "booting server into rescue", map[string]any{"server": s.Number})
	if err := b.rescue(ctx); err != nil {
		return adapter.Machine{ID: id}, err
	}
	if b.resets == 0 {
		// Said to the operation's logger, which shows it as the
		// action's progress: the operator learns nothing was restarted.
		adapter.LoggerFrom(ctx).Info(ctx, describe(s)+" runs its rescue system already: nothing is armed or reset",
			map[string]any{"server": s.Number})
	}
	err = a.retried(ctx, "read server "+id+" back", func(ctx context.Context) (err error) {
		s, err = a.getServer(ctx, s.Number)
		return err
	})
	if err != nil {
		return adapter.Machine{ID: id}, fail("read "+describe(b.s)+" back after its boot into rescue", err)
	}
	return a.toMachine(s), nil
}
