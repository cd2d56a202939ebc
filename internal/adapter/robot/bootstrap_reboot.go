package robot

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/robot/install"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/sshexec"
)

// reboot boots the installed system: rescue disarmed first (so the boot
// starts the disk), then a software reset with a bounded wait for the
// installed host key, then a hardware reset with the rest of the phase's
// time; a machine that comes up on neither is Transient. A machine whose
// installed system answers already (an earlier run rebooted it) is not
// reset at all.
func (b *run) reboot(ctx context.Context) error {
	b.closeSessions()
	if b.p.HostKey == "" {
		return adapter.Errorf(adapter.InvalidState, "the installed system's host key of %s is not known; run again, which reads it in rescue", describe(b.s))
	}
	cur, err := b.a.rescueState(ctx, b.s.Number)
	if err != nil {
		return fail("read the rescue system of "+describe(b.s), err)
	}
	if cur.Active {
		if err := b.a.deactivateRescue(ctx, b.s.Number); err != nil {
			return fail("deactivate the rescue system of "+describe(b.s), err)
		}
	}
	if up, err := b.installedUp(ctx); err != nil || up {
		return err
	}
	start := b.a.clock.Now()
	softEnd := start.Add(b.phaseEnd.Sub(start) / 2)
	for _, step := range []struct {
		kind  string
		until time.Time
	}{{"sw", softEnd}, {"hw", b.phaseEnd}} {
		if err := b.a.resetServer(ctx, b.s.Number, step.kind); err != nil {
			if step.kind == "sw" && adapter.CodeOf(err) != adapter.Transient && adapter.CodeOf(err) != adapter.RateLimited {
				// A server that takes no software reset goes on to hw.
				continue
			}
			return fail("reset "+describe(b.s)+" (reset type "+step.kind+")", err)
		}
		err := b.wait(ctx, "the installed system of "+describe(b.s)+" to answer after a "+step.kind+" reset", step.until, func(ctx context.Context) (bool, string, error) {
			up, err := b.installedUp(ctx)
			return up, "rebooting", err
		})
		if err == nil || adapter.CodeOf(err) != adapter.Transient || ctx.Err() != nil {
			return err
		}
		b.a.c.Log.Info(ctx, "bootstrap: the installed system did not come up, escalating the reset",
			map[string]any{"server": b.s.Number, "reset": step.kind})
	}
	return adapter.Errorf(adapter.Transient, "the installed system of %s did not answer on SSH after a software and a hardware reset within %s; check the server's console in Robot, then run again",
		describe(b.s), b.timeout(adapter.PhaseRebooting))
}

// installedUp probes the installed host key: it answers (true), nothing or
// the rescue system answers (false, the reboot is not over), or another key
// answers (AccessDenied, nothing sent).
func (b *run) installedUp(ctx context.Context) (bool, error) {
	pin := sshexec.Pin{PublicKey: b.p.HostKey}
	ok, offered, err := b.probe(ctx, pin)
	switch {
	case err != nil && isUnreachable(err):
		return false, nil
	case err != nil:
		return false, err
	case ok:
		return true, nil
	case b.p.RescueHostKey != "" && rescueOffered(b.p.RescueHostKey, offered):
		return false, nil
	}
	_, err = b.ssh.Dial(ctx, b.target(pin), b.a.auth)
	if err == nil {
		e := adapter.Errorf(adapter.AccessDenied, "the host at %s offered another key than the installed system's", b.s.IP)
		e.Err = adapter.ErrHostKeyMismatch
		err = e
	}
	return false, err
}

// rescueOffered says whether the key offered is the pinned rescue key.
func rescueOffered(pin string, k sshexec.HostKey) bool {
	_, fp, _ := strings.Cut(pin, " ")
	return fp != "" && (fp == k.SHA256 || strings.EqualFold(strings.TrimPrefix(fp, "MD5:"), k.MD5))
}

// awaitReady waits for the installed system to be ready: ReadyCommand
// exits 0, or else the first-boot unit reports success, or else (no first
// boot) the system answers. A failed unit is InvalidState; a run handed a
// failed progress installs again instead.
func (b *run) awaitReady(ctx context.Context) error {
	var sess sshexec.Session
	defer func() {
		if sess != nil {
			_ = sess.Close()
		}
	}()
	line, step := "", ""
	switch {
	case len(b.req.ReadyCommand) > 0:
		line, step = install.ReadyLine(b.req.ReadyCommand), "ready command"
	case b.req.FirstBoot != nil:
		line, step = install.UnitLine, "first boot state"
	}
	var failed string
	err := b.wait(ctx, "the installed system of "+describe(b.s)+" to be ready", b.phaseEnd, func(ctx context.Context) (bool, string, error) {
		if sess == nil {
			s, err := b.ssh.Dial(ctx, b.target(sshexec.Pin{PublicKey: b.p.HostKey}), b.a.auth)
			if err != nil {
				return false, "no SSH yet", err
			}
			sess = s
		}
		if line == "" {
			return true, "answers", nil
		}
		res, err := sess.Run(ctx, step, line, nil)
		if err != nil {
			_ = sess.Close()
			sess = nil
			return false, "no answer", err
		}
		if step == "ready command" {
			return res.Exit == 0, "ready command exits " + strconv.Itoa(res.Exit), nil
		}
		active, result := unitState(string(res.Stdout))
		state := "first boot " + active + " (" + result + ")"
		if active == "failed" {
			failed = result
			return true, state, nil
		}
		return active == "active" && result == "success", state, nil
	})
	if err != nil {
		return err
	}
	if failed != "" {
		if !b.installedHere {
			return errReinstall
		}
		return adapter.Errorf(adapter.InvalidState, "the first-boot unit %s failed on %s (Result=%s); see journalctl -u %s on the host",
			install.UnitName, describe(b.s), failed, install.UnitName)
	}
	return nil
}

// unitState reads "ActiveState=…" and "Result=…" lines.
func unitState(out string) (active, result string) {
	for _, l := range strings.Split(out, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "ActiveState="); ok {
			active = v
		}
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "Result="); ok {
			result = v
		}
	}
	return active, result
}
