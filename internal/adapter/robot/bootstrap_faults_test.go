package robot

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/robot/install"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/sshhost"
)

// TestBootstrapResumesFromEveryPhase cancels a bootstrap as it enters each
// phase (and once while the installer runs), then runs it again with a zero
// Progress, as after a kill before Terraform saved anything: it ends ready
// with one install.
func TestBootstrapResumesFromEveryPhase(t *testing.T) {
	cases := []struct {
		name  string
		phase adapter.Phase
		// atCommand cancels once a command with this prefix finished.
		atCommand string
	}{
		{name: "rescue", phase: adapter.PhaseRescue},
		{name: "identifying", phase: adapter.PhaseIdentifying},
		{name: "installing", phase: adapter.PhaseInstalling},
		{name: "install running", atCommand: "setsid -f"},
		{name: "rebooting", phase: adapter.PhaseRebooting},
		{name: "reboot sent", atCommand: "cat /root/compute/host_key.pub"},
		{name: "ready", phase: adapter.PhaseReady},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := newMetalEnv(t)
			id, m := e.claim("node1")
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			rec := &recorder{onPhase: func(p adapter.Progress) {
				if c.phase != "" && p.Phase == c.phase {
					cancel()
				}
			}}
			if c.atCommand != "" {
				hook := func(cmd sshhost.Command) {
					if strings.HasPrefix(cmd.Line, c.atCommand) {
						cancel()
					}
				}
				e.onCommand.Store(&hook)
			}
			first, err := e.a.Bootstrap(ctx, id, e.request("node1"), adapter.Progress{}, rec.report)
			if err == nil || !adapter.Is(err, adapter.Transient) || first.Phase != adapter.PhaseFailed {
				t.Fatalf("cancelled bootstrap = %+v, %v; want a Transient failure", first, err)
			}
			e.onCommand.Store(nil)
			p, err := e.a.Bootstrap(context.Background(), id, e.request("node1"), adapter.Progress{}, nil)
			if err != nil || p.Phase != adapter.PhaseReady {
				t.Fatalf("resumed bootstrap = %+v, %v", p, err)
			}
			if n := m.Installs(); n != 1 {
				t.Errorf("installs = %d, want 1", n)
			}
			if got := installedKey(t, m); got != p.HostKey {
				t.Errorf("HostKey %q is not the installed system's %q", p.HostKey, got)
			}
			e.noSecrets(err)
		})
	}
}

// TestBootstrapRefusesWrongRescueKey: the webservice announces a key the
// rescue system does not have; the bootstrap stops before any credential:
// the private key is never resolved, no command runs.
func TestBootstrapRefusesWrongRescueKey(t *testing.T) {
	e := newMetalEnv(t)
	e.wrong.Store(true)
	id, m := e.claim("node1")
	p, err := e.a.Bootstrap(context.Background(), id, e.request("node1"), adapter.Progress{}, nil)
	if !adapter.Is(err, adapter.AccessDenied) || p.Phase != adapter.PhaseFailed || p.FailedPhase != adapter.PhaseRescue {
		t.Fatalf("Bootstrap = %+v, %v; want AccessDenied in rescue", p, err)
	}
	if !strings.Contains(err.Error(), "does not match its pin") || !strings.Contains(err.Error(), m.SSHAddr()) {
		t.Errorf("the error does not name the host and the mismatch: %v", err)
	}
	if n := e.secrets.count("provider://ssh_key"); n != 0 {
		t.Errorf("the private key was resolved %d time(s) for a host that failed its pin", n)
	}
	if cmds := m.Commands(); len(cmds) != 0 {
		t.Errorf("commands ran on a host that failed its pin: %+v", cmds)
	}
	if m.Booted() != "rescue" {
		t.Errorf("the machine runs %s; the test wants the refusal to come from a rescue system that answers", m.Booted())
	}
}

// TestBootstrapSurvivesSSHDrop cuts every session right after the start
// line and again during the polls: the install goes on, one install, ready.
// A start line sent again is where a wrong bootstrap would loop (each
// delivery arms the next drop), so the test ends the run at the second
// start line rather than wait for a phase timeout.
func TestBootstrapSurvivesSSHDrop(t *testing.T) {
	e := newMetalEnv(t)
	id, m := e.claim("node1")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var polls, starts atomic.Int32
	hook := func(c sshhost.Command) {
		switch {
		case c.Line == install.WriteLine(install.ScriptPath):
			m.DropSessionsAfter(1) // the next command, the start line
		case c.Line == install.StartLine && starts.Add(1) > 1:
			cancel()
		case c.Line == install.PollLine && c.Exit != 0 && polls.Add(1) == 2:
			m.DropSessionsAfter(1)
		}
	}
	e.onCommand.Store(&hook)
	p, err := e.a.Bootstrap(ctx, id, e.request("node1"), adapter.Progress{}, nil)
	if n := starts.Load(); n != 1 {
		t.Fatalf("the start line was sent %d times; want once, the dropped start waited for", n)
	}
	if err != nil || p.Phase != adapter.PhaseReady {
		t.Fatalf("Bootstrap = %+v, %v", p, err)
	}
	if n := m.Installs(); n != 1 {
		t.Errorf("installs = %d, want 1", n)
	}
	cut := 0
	for _, c := range m.Commands() {
		if c.Exit == -1 {
			cut++
		}
	}
	if cut < 2 {
		t.Errorf("%d commands were cut; the test wants the start line and a poll cut", cut)
	}
	e.noSecrets(err)
}

// TestBootstrapInstallerFailure: a failing installer ends in PhaseFailed
// at installing with the step; run again from that progress once the
// fault is gone, it installs again and ends ready.
func TestBootstrapInstallerFailure(t *testing.T) {
	e := newMetalEnv(t)
	id, m := e.claim("node1")
	m.FailInstall("installimage: cannot write /dev/nvme0n1")
	p, err := e.a.Bootstrap(context.Background(), id, e.request("node1"), adapter.Progress{}, nil)
	if !adapter.Is(err, adapter.InvalidState) || p.Phase != adapter.PhaseFailed || p.FailedPhase != adapter.PhaseInstalling {
		t.Fatalf("Bootstrap = %+v, %v; want InvalidState at installing", p, err)
	}
	if !strings.Contains(p.Reason, `step "installimage"`) {
		t.Errorf("Reason %q does not name the failing step", p.Reason)
	}
	m.ClearFaults()
	p, err = e.a.Bootstrap(context.Background(), id, e.request("node1"), p, nil)
	if err != nil || p.Phase != adapter.PhaseReady || p.FailedPhase != "" || p.Reason != "" {
		t.Fatalf("second Bootstrap = %+v, %v", p, err)
	}
	if n := m.Installs(); n != 2 {
		t.Errorf("installs = %d, want 2 (the failed one and the new one)", n)
	}
	e.noSecrets(err)
}

// TestBootstrapEscalatesReset: the installed system never comes up on a
// software reset that the machine ignores, so a hardware reset follows.
func TestBootstrapEscalatesReset(t *testing.T) {
	e := newMetalEnv(t)
	id, m := e.claim("node1")
	m.IgnoreSoftReset(true)
	req := e.request("node1")
	req.Timeouts[adapter.PhaseRebooting] = 2 * time.Second
	e.robot.ResetStats()
	p, err := e.a.Bootstrap(context.Background(), id, req, adapter.Progress{}, nil)
	if err != nil || p.Phase != adapter.PhaseReady {
		t.Fatalf("Bootstrap = %+v, %v", p, err)
	}
	// hw into rescue, then sw (ignored) and hw into the installed system.
	if n := e.robot.Stats()["POST /reset/{id}"]; n != 3 {
		t.Errorf("resets = %d, want 3", n)
	}
	if !strings.Contains(e.log.Text(), "escalating the reset map[reset:sw") {
		t.Errorf("no log line says the reset was escalated")
	}
}

// TestBootstrapRefusesInvalidRequest: a request the contract's rules
// refuse (values the plan did not know) comes back InvalidInput on its
// field before anything is asked of Robot or sent over SSH.
func TestBootstrapRefusesInvalidRequest(t *testing.T) {
	e := newMetalEnv(t)
	id, m := e.claim("node1")
	req := e.request("node1")
	req.Files[1].Path = "/etc/agent/a b"
	e.robot.ResetStats()
	p, err := e.a.Bootstrap(context.Background(), id, req, adapter.Progress{}, nil)
	if !adapter.Is(err, adapter.InvalidInput) || adapter.FieldOf(err) != "files[1].path" || p.Phase != adapter.PhaseFailed {
		t.Fatalf("Bootstrap = %+v, %v (field %q); want InvalidInput on files[1].path", p, err, adapter.FieldOf(err))
	}
	if stats := e.robot.Stats(); len(stats) != 0 {
		t.Errorf("Robot was asked %v for a refused request", stats)
	}
	if cmds := m.Commands(); len(cmds) != 0 {
		t.Errorf("commands ran for a refused request: %+v", cmds)
	}
}

// TestBootstrapDeliversAgainAfterRescueRestart: the rescue system restarts
// while the install runs (its filesystem, the delivered files and the
// detached install with it), from a new activation, so with new host keys:
// the bootstrap stops at the key it was not told of, before sending
// anything, and says to run again; the run again reads the new key from
// the webservice, sees the install's log gone, delivers the files again
// and starts once more, and ends ready.
func TestBootstrapDeliversAgainAfterRescueRestart(t *testing.T) {
	e := newMetalEnv(t)
	id, m := e.claim("node1")
	m.HangInstall(true) // the first install runs until the restart
	seen := make(chan struct{})
	var once sync.Once
	var starts, delivered atomic.Int32
	hook := func(c sshhost.Command) {
		switch {
		case c.Line == install.StartLine:
			starts.Add(1)
		case c.Line == install.DeliverLine(0) && c.Exit == 0:
			delivered.Add(1)
		case c.Line == install.LogExistsLine && c.Exit == 0:
			once.Do(func() { close(seen) })
		}
	}
	e.onCommand.Store(&hook)
	restarted := make(chan error, 1)
	go func() {
		<-seen
		m.HangInstall(false)
		// Robot's activation was used by the first boot: activate again,
		// as a rescue restarted from the panel is.
		if _, err := e.a.activateRescue(context.Background(), m.Number()); err != nil {
			restarted <- err
			return
		}
		restarted <- m.Reset("hw")
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	p, err := e.a.Bootstrap(ctx, id, e.request("node1"), adapter.Progress{}, nil)
	if rerr := <-restarted; rerr != nil {
		t.Fatal(rerr)
	}
	if err == nil || !errors.Is(err, adapter.ErrHostKeyMismatch) || !strings.Contains(err.Error(), "run apply again") {
		t.Fatalf("Bootstrap with the rescue system restarted from a new activation = %+v, %v; want the new host key refused, with the way out", p, err)
	}
	p, err = e.a.Bootstrap(ctx, id, e.request("node1"), p, nil)
	if err != nil || p.Phase != adapter.PhaseReady {
		t.Fatalf("Bootstrap run again = %+v, %v", p, err)
	}
	// The restart follows the first sight of the install's log, which the
	// detached sh writes before installimage begins: the lost install may
	// have reached installimage or not, so it counts once or not at all.
	if s, d, n := starts.Load(), delivered.Load(), m.Installs(); s != 2 || d != 2 || n < 1 || n > 2 {
		t.Errorf("starts %d, deliveries of files[0] %d, installs %d; want 2 starts and 2 deliveries (the lost install and the new one) and 1 or 2 installs", s, d, n)
	}
	e.noSecrets(err)
}

// TestBootstrapRetriesTheWebservice: two 503s on the rescue activation are
// retried, as every read of the contract is, instead of failing the phase.
func TestBootstrapRetriesTheWebservice(t *testing.T) {
	e := newMetalEnv(t)
	id, _ := e.claim("node1")
	if err := e.robot.Faults().FailNext("POST", "/boot/{id}/rescue", 2, 503, "MAINTENANCE"); err != nil {
		t.Fatal(err)
	}
	p, err := e.a.Bootstrap(context.Background(), id, e.request("node1"), adapter.Progress{}, nil)
	if err != nil || p.Phase != adapter.PhaseReady {
		t.Fatalf("Bootstrap = %+v, %v; want ready after two 503s", p, err)
	}
	if left := e.robot.Faults().Rules(); len(left) != 0 {
		t.Errorf("the 503s were never met: %+v", left)
	}
}
