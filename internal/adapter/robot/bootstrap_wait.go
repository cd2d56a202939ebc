package robot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/sshexec"
)

// How long waits speak: a wait that lasts says so at INFO, first after
// waitSayAfter, then every waitSayEvery, with what it saw last.
const (
	waitSayAfter = 5 * time.Second
	waitSayEvery = 10 * time.Second
)

// waitWayOn ends the message of a wait that ran out.
const waitWayOn = "; run again to continue, or raise the phase's timeout"

// wait calls check until it is done, the phase's deadline passes on the
// account's clock (Transient: running again continues), ctx ends or check
// fails with anything but Transient. check reports what it saw, a short
// state safe to print, for the INFO lines and the timeout's message.
func (b *run) wait(ctx context.Context, what string, until time.Time, check func(context.Context) (bool, string, error)) error {
	clock := b.a.clock
	start := clock.Now()
	said := time.Time{}
	delay := pace.poll
	state := "nothing yet"
	var last error
	for {
		done, seen, err := check(ctx)
		if seen != "" {
			state = seen
		}
		switch {
		case err == nil && done:
			return nil
		case err != nil && adapter.CodeOf(err) != adapter.Transient:
			return err
		case err != nil:
			last = err
		}
		if ctx.Err() != nil {
			return ctx.Err()
		}
		now := clock.Now()
		if !now.Add(delay).Before(until) {
			limit := until.Sub(start)
			if until.Equal(b.phaseEnd) {
				// A wait begun late in the phase (after a reset sent
				// again) still names the phase's timeout, which a user
				// raises.
				limit = b.timeout(b.p.Phase)
			}
			msg := fmt.Sprintf("%s did not happen within the phase's timeout of %s (last seen: %s)", what, limit.Round(time.Second), state)
			if last != nil {
				msg += "; last error: " + last.Error()
			}
			return &adapter.Error{Code: adapter.Transient, Err: last,
				Message: msg + waitWayOn}
		}
		if now.Sub(start) >= waitSayAfter && now.Sub(said) >= waitSayEvery {
			said = now
			b.a.c.Log.Info(ctx, "bootstrap still waiting", map[string]any{
				"server": b.s.Number, "phase": string(b.p.Phase), "what": what, "state": state,
				"elapsed": now.Sub(start).Round(time.Second).String(),
			})
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-clock.After(delay):
			b.waited += delay
		}
		delay = min(2*delay, pace.maxPoll)
	}
}

// target is the server's SSH address with pin.
func (b *run) target(pin sshexec.Pin) sshexec.Target {
	return sshexec.Target{Host: b.s.IP, Port: b.a.sshPort, User: "root", Pin: pin}
}

// rescuePin reads Progress.RescueHostKey ("TYPE FINGERPRINT").
func rescuePin(s string) sshexec.Pin {
	typ, fp, _ := strings.Cut(s, " ")
	return sshexec.Pin{Type: typ, Fingerprint: fp}
}

// auth resolves the account's private key, which sshexec asks for only
// once the host key passed its pin.
func (a *account) auth(ctx context.Context) ([]byte, error) {
	ref := a.settings[settingSSHPrivateKey]
	if ref == "" {
		return nil, adapter.Errorf(adapter.InvalidConfig,
			"bootstrap logs in to the rescue system with the account's SSH key: set ssh_private_key to a reference to the private key of ssh_key").WithField(settingSSHPrivateKey)
	}
	v, err := adapter.ResolveField(ctx, a.c.secrets, settingSSHPrivateKey, ref, "the private key")
	if err != nil {
		return nil, err
	}
	return []byte(v), nil
}

// rescueSession is the session to the rescue system, dialled pinned to
// Progress.RescueHostKey when there is none.
func (b *run) rescueSession(ctx context.Context) (sshexec.Session, error) {
	if b.rescueS != nil {
		return b.rescueS, nil
	}
	if b.p.RescueHostKey == "" {
		return nil, adapter.Errorf(adapter.InvalidState, "no rescue host key is known for %s; run the bootstrap again", describe(b.s))
	}
	s, err := b.ssh.Dial(ctx, b.target(rescuePin(b.p.RescueHostKey)), b.a.auth)
	if err != nil {
		return nil, err
	}
	b.rescueS = s
	return s, nil
}

// inRescue runs line in rescue once. A dropped session is forgotten, so
// the next call dials again; the error stays Transient for the caller's
// wait or retry.
func (b *run) inRescue(ctx context.Context, step, line string, stdin io.Reader) (sshexec.Result, error) {
	s, err := b.rescueSession(ctx)
	if err != nil {
		return sshexec.Result{}, err
	}
	res, err := s.Run(ctx, step, line, stdin)
	if err != nil {
		_ = s.Close()
		b.rescueS = nil
	}
	return res, err
}

// must is try for a command that has to succeed: a non-zero exit is an
// InvalidState error naming step and the command's last line of stderr.
func (b *run) must(ctx context.Context, step, line string, stdin func(context.Context) (io.Reader, error)) (sshexec.Result, error) {
	res, err := b.try(ctx, step, line, stdin)
	if err == nil && res.Exit != 0 {
		err = adapter.Errorf(adapter.InvalidState, "step %q on %s exited %d: %s", step, describe(b.s), res.Exit, lastLine(res.Stderr))
	}
	return res, err
}

// try runs an idempotent command in rescue, again after a drop, until it
// ran or the phase's deadline passed. stdin is called for each attempt, so
// a secret is resolved only at the moment it is streamed.
func (b *run) try(ctx context.Context, step, line string, stdin func(context.Context) (io.Reader, error)) (sshexec.Result, error) {
	var res sshexec.Result
	err := b.wait(ctx, step, b.phaseEnd, func(ctx context.Context) (bool, string, error) {
		var in io.Reader
		if stdin != nil {
			r, err := stdin(ctx)
			if err != nil {
				return false, "", err
			}
			in = r
		}
		var err error
		res, err = b.inRescue(ctx, step, line, in)
		return err == nil, "", err
	})
	return res, err
}

// lastLine is the last non-empty line of out, cut to a sensible length:
// the protocol's commands write names and paths there, never content.
func lastLine(out []byte) string {
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	l := strings.TrimSpace(lines[len(lines)-1])
	if len(l) > 200 {
		l = l[:200] + "…"
	}
	if l == "" {
		return "(no output)"
	}
	return l
}

// isUnreachable tells a machine that is not up yet from other failures.
func isUnreachable(err error) bool {
	return errors.Is(err, sshexec.ErrUnreachable) || errors.Is(err, sshexec.ErrDropped)
}
