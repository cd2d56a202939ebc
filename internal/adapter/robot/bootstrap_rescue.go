package robot

import (
	"context"
	"errors"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/robot/install"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/sshexec"
)

// rescue brings the machine into its rescue system with a pinned host key.
// Armed rescue: pin what Robot announced. Else the last activation's key
// and a probe: a machine that answers with it and names itself "rescue" is
// in rescue already, and nothing is reset. Otherwise arm rescue, pin, reset
// the hardware and wait for the pinned key to answer.
//
// An armed activation whose key does not answer is reset into at once,
// though a reset of an earlier run (killed after sending it) may be
// booting it already: Robot tells a reset that was done from one still to
// come by nothing but the activation, which stands until the boot begins.
// The second reset costs at most a second boot into rescue, and a reset in
// the middle of a rescue boot writes nothing to the disks; waiting a grace
// first would cost minutes every time the earlier run was killed before
// its reset, or its reset was lost.
func (b *run) rescue(ctx context.Context) error {
	n := b.s.Number
	cur, err := b.a.rescueState(ctx, n)
	if err != nil {
		return fail("read the rescue system of "+describe(b.s), err)
	}
	if cur.Active && cur.pin() != "" {
		b.p.RescueHostKey = cur.pin()
		if b.answersAsRescue(ctx) {
			return nil
		}
		return b.resetIntoRescue(ctx)
	}
	last, found, err := b.a.lastRescue(ctx, n)
	if err != nil {
		return fail("read the last rescue activation of "+describe(b.s), err)
	}
	if found && last.pin() != "" {
		b.p.RescueHostKey = last.pin()
		if b.answersAsRescue(ctx) {
			return nil
		}
	}
	if err := b.armRescue(ctx); err != nil {
		return err
	}
	return b.resetIntoRescue(ctx)
}

// armRescue activates the rescue system with the account's key and pins
// the host key Robot announced for this activation (each has its own),
// reported at once so that state holds the pin before the reset: a run
// killed after it finds the activation armed and resets into it.
func (b *run) armRescue(ctx context.Context) error {
	if err := b.a.def.Lacks(adapter.CapRescue, "arming the rescue system of "+describe(b.s), b.a.settings); err != nil {
		return err
	}
	act, err := b.a.activateRescue(ctx, b.s.Number)
	if err != nil {
		return fail("activate the rescue system of "+describe(b.s), err)
	}
	if act.pin() == "" {
		return adapter.Errorf(adapter.InvalidState, "Robot announced no host key for the rescue system of %s, and a host is never trusted on first use; activate rescue again or contact Hetzner", describe(b.s))
	}
	b.p.RescueHostKey = act.pin()
	b.report(b.p)
	return nil
}

// answersAsRescue probes the pinned key within a short bound (no
// credential goes out unless it matches) and then asks the host its name.
func (b *run) answersAsRescue(ctx context.Context) bool {
	ctx, cancel := context.WithTimeout(ctx, pace.probe)
	defer cancel()
	ok, _, err := b.ssh.ProbePin(ctx, b.target(rescuePin(b.p.RescueHostKey)))
	if err != nil || !ok {
		return false
	}
	if b.pinOnly {
		return true
	}
	res, err := b.inRescue(ctx, "hostname", install.HostnameLine, nil)
	return err == nil && res.Exit == 0 && strings.TrimSpace(string(res.Stdout)) == "rescue"
}

// resetIntoRescue resets the hardware and waits for the rescue system.
// While the machine reboots its address may still answer with the
// installed system's key (known from an earlier run); any other key stops
// the bootstrap before a credential is sent. A boot that missed rescue
// (see missWatch) is met by arming rescue again and resetting once more,
// at most maxRearms times in the phase.
func (b *run) resetIntoRescue(ctx context.Context) error {
	for rearms := 0; ; rearms++ {
		b.closeSessions()
		b.resets++
		if err := b.a.resetArmed(ctx, b.s.Number); err != nil {
			return fail("reset "+describe(b.s)+" into rescue (reset type hw)", err)
		}
		err := b.awaitRescue(ctx, rearms < maxRearms)
		if !errors.Is(err, errMissedRescue) {
			return rearmsDidNotHelp(err, rearms)
		}
		b.a.c.Log.Warn(ctx, "bootstrap: the boot missed the rescue system (Robot spent the activation and nothing answered as rescue); arming rescue again and resetting",
			map[string]any{"server": b.s.Number, "phase": string(b.p.Phase), "rearm": rearms + 1, "max_rearms": maxRearms})
		if err := b.armRescue(ctx); err != nil {
			return err
		}
	}
}

// probe runs ProbePin within the probe bound, as Transient ErrUnreachable
// when nothing answers.
func (b *run) probe(ctx context.Context, pin sshexec.Pin) (bool, sshexec.HostKey, error) {
	ctx, cancel := context.WithTimeout(ctx, pace.probe)
	defer cancel()
	return b.ssh.ProbePin(ctx, b.target(pin))
}

// identify reads the SMBIOS UUID. A machine whose UUID is not the one
// recorded is not the machine this bootstrap began on.
func (b *run) identify(ctx context.Context) error {
	res, err := b.must(ctx, "read the SMBIOS UUID", install.IdentifyLine, nil)
	if err != nil {
		return err
	}
	uuid := strings.ToLower(strings.TrimSpace(string(res.Stdout)))
	if b.p.ProductUUID != "" && !strings.EqualFold(b.p.ProductUUID, uuid) {
		return adapter.Errorf(adapter.InvalidState, "%s reports SMBIOS UUID %s, but the bootstrap began on %s: Robot now puts another machine behind this server; check the server in Robot, then remove the bootstrap host to start again",
			describe(b.s), uuid, b.p.ProductUUID)
	}
	b.p.ProductUUID = uuid
	return nil
}

// Identify implements adapter.Identifier: the UUID is read in the rescue
// system, so it answers only while the server runs it (during a bootstrap);
// it never resets a server to find out.
func (a *account) Identify(ctx context.Context, id string) (string, error) {
	s, _, err := a.managed(ctx, id, "identify")
	if err != nil {
		return "", err
	}
	b := &run{a: a, s: s, ssh: newDialer(a), phaseEnd: a.clock.Now().Add(pace.probe)}
	defer b.closeSessions()
	for _, read := range []func(context.Context, int) (rescueInfo, bool, error){
		func(ctx context.Context, n int) (rescueInfo, bool, error) {
			r, err := a.rescueState(ctx, n)
			return r, r.Active, err
		},
		a.lastRescue,
	} {
		info, found, err := read(ctx, s.Number)
		if err != nil {
			return "", fail("read the rescue system of "+describe(s), err)
		}
		if found && info.pin() != "" {
			b.p.RescueHostKey = info.pin()
			if b.answersAsRescue(ctx) {
				if err := b.identify(ctx); err != nil {
					return "", err
				}
				return b.p.ProductUUID, nil
			}
		}
	}
	return "", adapter.Errorf(adapter.InvalidState, "%s does not run its rescue system, where its SMBIOS UUID is read; a compute_bootstrap_host reads it while it installs the server", describe(s))
}
