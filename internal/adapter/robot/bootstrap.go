package robot

import (
	"context"
	"errors"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/robot/install"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/sshexec"
)

// The bootstrap phase machine (adapter.Phase): rescue → identifying →
// installing → rebooting → ready, each phase a method of run named for it.
// Every phase starts by looking at the machine, so a run handed a zero
// Progress (an apply killed before Terraform saved anything) finds where
// the last one stopped: the webservice says whether rescue is armed and
// which host key it announced, the rescue system whether an install ran
// (install.exit, install.log, pgrep) and the disk whether it carries this
// install's fingerprint, so nothing is installed twice and no host is ever
// trusted on first use.

func init() {
	capabilities = append(capabilities, adapter.CapIdentify, adapter.CapBootstrap)
}

var (
	_ adapter.Bootstrapper = (*account)(nil)
	_ adapter.Identifier   = (*account)(nil)
)

// DefaultTimeouts bound each phase when the request sets none: a rescue
// boot takes a few minutes on real hardware, installimage ten to twenty, a
// reboot of the installed system a few, and a first-boot program whatever
// it does (pulling images, joining a cluster).
var DefaultTimeouts = map[adapter.Phase]time.Duration{
	adapter.PhaseRescue:      10 * time.Minute,
	adapter.PhaseIdentifying: 10 * time.Minute,
	adapter.PhaseInstalling:  30 * time.Minute,
	adapter.PhaseRebooting:   10 * time.Minute,
	adapter.PhaseReady:       15 * time.Minute,
}

// pacing is how often the phases look again while they wait (a boot, the
// installer, the first boot), doubling from poll up to maxPoll, how long a
// probe of an address may take, and how long a started install may take
// to show its log (a fork and an open: far less on any machine) before it
// counts as never started. Tests shorten it.
type pacing struct {
	poll, maxPoll, probe, start time.Duration
}

var pace = pacing{poll: 2 * time.Second, maxPoll: 15 * time.Second, probe: 15 * time.Second, start: 15 * time.Second}

// newDialer makes the SSH client of a run; tests replace it.
var newDialer = func(a *account) sshexec.Dialer {
	return &sshexec.Client{Clock: a.clock, Log: a.c.Log}
}

// Bootstrap implements adapter.Bootstrapper.
func (a *account) Bootstrap(ctx context.Context, id string, req adapter.BootstrapRequest, p adapter.Progress, report func(adapter.Progress)) (adapter.Progress, error) {
	if report == nil {
		report = func(adapter.Progress) {}
	}
	b := &run{a: a, req: req, p: p, report: report, ssh: newDialer(a)}
	defer b.closeSessions()
	start := b.resume()
	// Refused before anything is sent: the plan-time rules, again, for
	// values the plan did not know.
	if err := install.Validate(req); err != nil {
		return b.fail(start, err)
	}
	s, _, err := a.managed(ctx, id, "bootstrap")
	if err != nil {
		return b.fail(start, err)
	}
	b.s = s
	steps := []struct {
		phase adapter.Phase
		run   func(context.Context) error
	}{
		{adapter.PhaseRescue, b.rescue},
		{adapter.PhaseIdentifying, b.identify},
		{adapter.PhaseInstalling, b.install},
		{adapter.PhaseRebooting, b.reboot},
		{adapter.PhaseReady, b.awaitReady},
	}
	for i := 0; i < len(steps); i++ {
		st := steps[i]
		if st.phase != start && !b.begun {
			continue
		}
		b.enter(ctx, st.phase)
		err := st.run(ctx)
		if errors.Is(err, errReinstall) {
			// A first boot that failed before: install afresh from rescue.
			b.reinstall, i = true, -1
			continue
		}
		if err != nil {
			return b.fail(st.phase, err)
		}
	}
	b.p.FailedPhase, b.p.Reason = "", ""
	report(b.p)
	return b.p, nil
}

// errReinstall sends the machine back through rescue for a new install.
var errReinstall = errors.New("reinstall")

// run is one Bootstrap call.
type run struct {
	a      *account
	s      server
	req    adapter.BootstrapRequest
	p      adapter.Progress
	report func(adapter.Progress)
	ssh    sshexec.Dialer

	begun bool
	// installedHere is set once this call started an install. A failed
	// installer or first boot that this call did not cause is an earlier
	// attempt's (a failed apply whose host is retried, replaced or claimed
	// again after its state was lost): it is cleared and installed anew,
	// since running again is how a user retries. One this call caused is
	// its outcome, so a call installs at most twice and never loops.
	installedHere bool
	reinstall     bool
	rescueS       sshexec.Session
	phaseEnd      time.Time
	// pinOnly takes the pinned rescue host key answering as the rescue
	// system answering, without logging in to ask its name: a boot into
	// rescue for an operator (Rescue) needs no credential of the
	// provider's on the machine.
	pinOnly bool
	// resets counts the resets into rescue this call sent.
	resets int
	// waited is what this call's waits have waited on the account's
	// clock, the sum of their pauses between looks.
	waited time.Duration
}

// resume picks the phase to start from. Phases up to installing all start
// at rescue, which costs a probe when the machine is in rescue already;
// once the installed system's key is known, the run starts at rebooting,
// which first looks whether that system answers.
func (b *run) resume() adapter.Phase {
	phase := b.p.Phase
	if phase == adapter.PhaseFailed {
		phase = b.p.FailedPhase
		if phase == adapter.PhaseReady {
			return adapter.PhaseReady
		}
	}
	switch phase {
	case adapter.PhaseRebooting, adapter.PhaseReady:
		if b.p.HostKey != "" {
			return adapter.PhaseRebooting
		}
	}
	return adapter.PhaseRescue
}

// enter starts a phase: its deadline on the account's clock, the report,
// an INFO line.
func (b *run) enter(ctx context.Context, phase adapter.Phase) {
	b.begun = true
	b.p.Phase = phase
	b.phaseEnd = b.a.clock.Now().Add(b.timeout(phase))
	b.report(b.p)
	b.a.c.Log.Info(ctx, "bootstrap phase", map[string]any{"server": b.s.Number, "phase": string(phase)})
}

func (b *run) timeout(phase adapter.Phase) time.Duration {
	if d := b.req.Timeouts[phase]; d > 0 {
		return d
	}
	return DefaultTimeouts[phase]
}

// fail ends the run in phase with err's message as the reason.
func (b *run) fail(phase adapter.Phase, err error) (adapter.Progress, error) {
	var e *adapter.Error
	if !errors.As(err, &e) {
		// A cancel or deadline of the caller's context: running again
		// continues.
		e = &adapter.Error{Code: adapter.Transient, Err: err,
			Message: "the bootstrap was canceled or ran out of time in phase " + string(phase) + "; run it again to continue"}
		err = e
	}
	b.p.Phase, b.p.FailedPhase, b.p.Reason = adapter.PhaseFailed, phase, e.Message
	b.report(b.p)
	return b.p, err
}

func (b *run) closeSessions() {
	if b.rescueS != nil {
		_ = b.rescueS.Close()
		b.rescueS = nil
	}
}
