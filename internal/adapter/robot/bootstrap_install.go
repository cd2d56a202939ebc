package robot

import (
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/robot/install"
)

// What the rescue system says about the install.
type installState int

const (
	installNone    installState = iota // nothing ran: install
	installRunning                     // started in this rescue boot, not finished
	installDone                        // install.exit is 0
	installFailed                      // install.exit is not 0
	installOnDisk                      // the disk carries this install's fingerprint
)

// install runs the installer once: it looks at the machine first, and
// only when nothing there says this install ran or runs does it deliver
// the files and start install.sh, detached, then waits for install.exit.
// Delivery and start are one step: every start line follows a delivery
// of all files in the same rescue boot, and the run never goes back to
// guessing from the machine whether an install it started runs (its log
// appears only once the detached sh got going), so an install that has not
// shredded the files yet is never started twice, and one that lost its
// files (the rescue system rebooted) is delivered again.
func (b *run) install(ctx context.Context) error {
	lsblk, err := b.must(ctx, "list the drives", install.LsblkLine, nil)
	if err != nil {
		return err
	}
	layout, err := install.ChooseLayout(b.req.Disks, string(lsblk.Stdout))
	if err != nil {
		return err
	}
	fp := install.Fingerprint(b.req, layout)
	b.p.InstallFingerprint = fp
	for {
		st, reason, err := b.installState(ctx, layout, fp)
		if err != nil {
			return err
		}
		switch st {
		case installDone:
			return b.readHostKey(ctx, install.HostKeyLine, false)
		case installOnDisk:
			return b.readHostKey(ctx, install.InstalledHostKeyLine, true)
		case installFailed:
			if b.installedHere {
				return adapter.Errorf(adapter.InvalidState, "the installer failed on %s at %s", describe(b.s), reason)
			}
			// An earlier attempt's failure: clear it and install anew.
			b.reinstall = true
			if _, err := b.must(ctx, "clear the failed install", install.ClearLine, nil); err != nil {
				return err
			}
		case installRunning:
			if err := b.awaitInstall(ctx); err != nil {
				return err
			}
		case installNone:
			if b.installedHere {
				// The poll that would have seen the log go may have met
				// the reboot itself, and install looked again instead.
				b.a.c.Log.Info(ctx, "bootstrap: the install is not running; delivering the files and starting it again",
					map[string]any{"server": b.s.Number, "why": "the rescue system holds no trace of the install this run started (it restarted)"})
			}
			b.reinstall, b.installedHere = false, true
			if err := b.startInstall(ctx, string(lsblk.Stdout)); err != nil {
				return err
			}
			if err := b.awaitInstall(ctx); err != nil {
				return err
			}
		}
	}
}

// installState looks, in this order, at install.exit (and the install.fp
// beside it: an exit of another install does not count), install.log
// (the start line's inner sh creates it) or a running installimage, and the
// disk's fingerprint; a run told to reinstall skips the disk.
func (b *run) installState(ctx context.Context, l install.Layout, fp string) (installState, string, error) {
	res, err := b.try(ctx, "read the install's exit status", install.PollLine, nil)
	if err != nil {
		return 0, "", err
	}
	if res.Exit == 0 {
		ran, err := b.try(ctx, "read the install's fingerprint", install.RunFPLine, nil)
		if err != nil {
			return 0, "", err
		}
		if ran.Exit == 0 && strings.TrimSpace(string(ran.Stdout)) == fp {
			if strings.TrimSpace(string(res.Stdout)) == "0" {
				return installDone, "", nil
			}
			return installFailed, b.failedStep(ctx), nil
		}
	} else {
		for _, line := range []string{install.LogExistsLine, install.RunningLine} {
			res, err := b.try(ctx, "look for a running install", line, nil)
			if err != nil {
				return 0, "", err
			}
			if res.Exit == 0 {
				return installRunning, "", nil
			}
		}
	}
	if b.reinstall {
		return installNone, "", nil
	}
	// The installed root, mounted to read its fingerprint; a disk without
	// a system does not mount. An earlier run may have left it mounted.
	if _, err := b.try(ctx, "unmount the installed root", install.UnmountLine, nil); err != nil {
		return 0, "", err
	}
	res, err = b.try(ctx, "read the installed fingerprint", install.MountLine(l)+" && "+install.InstalledFPLine, nil)
	if err != nil {
		return 0, "", err
	}
	if res.Exit == 0 && strings.TrimSpace(string(res.Stdout)) == fp {
		return installOnDisk, "", nil
	}
	if _, err := b.try(ctx, "unmount the installed root", install.UnmountLine, nil); err != nil {
		return 0, "", err
	}
	return installNone, "", nil
}

// failedStep is the last "step: NAME" line of install.log, or the log's
// last line when no step was named.
func (b *run) failedStep(ctx context.Context) string {
	res, err := b.try(ctx, "read the install log", install.LogLine, nil)
	if err != nil || res.Exit != 0 {
		return "an unknown step (install.log cannot be read)"
	}
	step, detail := "", ""
	for _, l := range strings.Split(strings.TrimSpace(string(res.Stdout)), "\n") {
		if name, ok := strings.CutPrefix(strings.TrimSpace(l), "step: "); ok {
			step, detail = name, ""
		} else if strings.TrimSpace(l) != "" {
			detail = strings.TrimSpace(l)
		}
	}
	if step == "" {
		return "an unknown step: " + lastLine(res.Stdout)
	}
	if detail != "" {
		return "step " + strconv.Quote(step) + " (" + lastLine([]byte(detail)) + ")"
	}
	return "step " + strconv.Quote(step)
}

// startInstall writes what install.sh needs into /root/compute (files
// first, each over stdin into a umask 077 file, resolved at this moment;
// install.sh last) and sends the start line once. A drop on the start line
// is not answered by sending it again: awaitInstall finds out whether it
// ran.
func (b *run) startInstall(ctx context.Context, lsblk string) error {
	key, err := b.a.publicKey(ctx)
	if err != nil {
		return fail("read the public key of ssh_key "+b.a.sshKey+" from Robot", err)
	}
	plan, err := install.Build(b.req, lsblk, key+"\n")
	if err != nil {
		return err
	}
	if _, err := b.must(ctx, "clear an earlier install", install.ClearLine, nil); err != nil {
		return err
	}
	for i, f := range b.req.Files {
		if _, err := b.must(ctx, "deliver files["+strconv.Itoa(i)+"]", install.DeliverLine(i), func(ctx context.Context) (io.Reader, error) { return b.content(ctx, i, f) }); err != nil {
			return err
		}
	}
	for _, w := range plan.Writes {
		if _, err := b.must(ctx, w.Step, w.Line, func(context.Context) (io.Reader, error) { return strings.NewReader(w.Content), nil }); err != nil {
			return err
		}
	}
	res, err := b.inRescue(ctx, "start the install", install.StartLine, nil)
	switch {
	case err != nil && adapter.CodeOf(err) == adapter.Transient:
		return nil
	case err != nil:
		return err
	case res.Exit != 0:
		return adapter.Errorf(adapter.InvalidState, "the install could not be started on %s: %s", describe(b.s), lastLine(res.Stderr))
	}
	return nil
}

// content is file i's bytes: the reference resolved now, or the value.
func (b *run) content(ctx context.Context, i int, f adapter.File) (io.Reader, error) {
	if f.Ref == "" {
		return bytes.NewReader(f.Value), nil
	}
	v, err := adapter.ResolveField(ctx, b.a.c.secrets, "files["+strconv.Itoa(i)+"].content", f.Ref, "an existing secret")
	if err != nil {
		return nil, err
	}
	return strings.NewReader(v), nil
}

// awaitInstall polls install.exit until it exists. While it does not,
// install.log says whether the install is there at all: the start line's
// inner sh creates the log, a moment after the start line returned, so a
// log not seen within pace.start means the start line never ran (it was
// cut before it did), and a log seen and then gone means the rescue
// system rebooted and took the install and its files with it. Either
// way awaitInstall returns, and install looks again and delivers again.
// Drops reconnect.
func (b *run) awaitInstall(ctx context.Context) error {
	since, seen := b.a.clock.Now(), false
	return b.wait(ctx, "the installer on "+describe(b.s)+" to finish", b.phaseEnd, func(ctx context.Context) (bool, string, error) {
		res, err := b.inRescue(ctx, "poll the install", install.PollLine, nil)
		if err != nil {
			return false, "installing (no answer)", err
		}
		if res.Exit == 0 {
			return true, "finished", nil
		}
		res, err = b.inRescue(ctx, "look for the install's log", install.LogExistsLine, nil)
		if err != nil {
			return false, "installing (no answer)", err
		}
		gone := ""
		switch {
		case res.Exit == 0:
			seen = true
			return false, "installing", nil
		case seen:
			gone = "the install's log is gone (the rescue system restarted)"
		case b.a.clock.Now().Sub(since) >= pace.start:
			gone = "the install did not start"
		default:
			return false, "starting", nil
		}
		b.a.c.Log.Info(ctx, "bootstrap: the install is not running; delivering the files and starting it again",
			map[string]any{"server": b.s.Number, "why": gone})
		return true, gone, nil
	})
}

// readHostKey reads the installed system's public host key over the
// pinned rescue session: the pin the installed system is held to.
func (b *run) readHostKey(ctx context.Context, line string, mounted bool) error {
	res, err := b.must(ctx, "read the installed host key", line, nil)
	if err != nil {
		return err
	}
	key := strings.TrimSpace(string(res.Stdout))
	if f := strings.Fields(key); len(f) >= 2 {
		key = f[0] + " " + f[1]
	}
	if !strings.HasPrefix(key, "ssh-") {
		return adapter.Errorf(adapter.InvalidState, "the installed system of %s has no readable host key at /etc/ssh/ssh_host_ed25519_key.pub", describe(b.s))
	}
	b.p.HostKey = key
	if mounted {
		_, _ = b.inRescue(ctx, "unmount the installed root", install.UnmountLine, nil)
	}
	return nil
}
