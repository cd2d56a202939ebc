package robot

import (
	"context"

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
	if a.sshKey == "" {
		return adapter.Machine{}, adapter.Errorf(adapter.InvalidConfig,
			"%s arms Robot's rescue system with the account's SSH key, which the operator then logs in with: set ssh_key to its "+
				"fingerprint as Robot lists it under Key management", what).WithField(settingSSHKey)
	}
	s, _, err := a.managed(ctx, id, what)
	if err != nil {
		return adapter.Machine{}, err
	}
	if err := adapter.RefuseUnheld(what, a.toMachine(s), claim); err != nil {
		return adapter.Machine{}, err
	}
	b := &run{a: a, s: s, report: func(adapter.Progress) {}, ssh: newDialer(a), pinOnly: true}
	defer b.closeSessions()
	b.p.Phase = adapter.PhaseRescue
	// The rescue phase's own bound; the caller's timeout ends it sooner.
	b.phaseEnd = a.clock.Now().Add(DefaultTimeouts[adapter.PhaseRescue])
	a.c.log.Info(ctx, "booting server into rescue", map[string]any{"server": s.Number})
	if err := b.rescue(ctx); err != nil {
		return adapter.Machine{ID: id}, err
	}
	s, err = a.getServer(ctx, s.Number)
	if err != nil {
		return adapter.Machine{ID: id}, fail("read "+describe(b.s)+" back after its boot into rescue", err)
	}
	return a.toMachine(s), nil
}
