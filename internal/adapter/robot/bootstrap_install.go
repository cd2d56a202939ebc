package robot

import (
	"bytes"
	"context"
	"io"
	"strconv"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
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
func (b *run) install(ctx context.Context) error {
	lsblk, err := b.must(ctx, "list the drives", "lsblk -dn -o NAME,TRAN", nil)
	if err != nil {
		return err
	}
	plan, err := planInstall(b.req, string(lsblk.Stdout))
	if err != nil {
		return err
	}
	b.p.InstallFingerprint = plan.fingerprint
	for {
		st, reason, err := b.installState(ctx, plan)
		if err != nil {
			return err
		}
		switch st {
		case installDone:
			return b.readHostKey(ctx, "cat "+hostKeyPubPath, false)
		case installOnDisk:
			return b.readHostKey(ctx, "cat /mnt/etc/ssh/ssh_host_ed25519_key.pub", true)
		case installFailed:
			if !b.retrying {
				return adapter.Errorf(adapter.InvalidState, "the installer failed on %s at %s; fix the cause and run again, which installs again", describe(b.s), reason)
			}
			// The caller knows of this failure and runs again: clear it.
			b.retrying, b.reinstall = false, true
			if _, err := b.must(ctx, "clear the failed install", "rm -f "+exitPath+" "+logPath, nil); err != nil {
				return err
			}
		case installRunning:
			if err := b.awaitInstall(ctx); err != nil {
				return err
			}
		case installNone:
			b.reinstall = false
			if err := b.startInstall(ctx, plan); err != nil {
				return err
			}
		}
	}
}

// installState looks, in this order, at install.exit (and the install.fp
// beside it: an exit of another install does not count), install.log
// (the start line creates it at once), a running installimage and the
// disk's fingerprint; a run told to reinstall skips the disk.
func (b *run) installState(ctx context.Context, plan installPlan) (installState, string, error) {
	res, err := b.try(ctx, "read the install's exit status", "cat "+exitPath, nil)
	if err != nil {
		return 0, "", err
	}
	if res.Exit == 0 {
		fp, err := b.try(ctx, "read the install's fingerprint", "cat "+fpPath, nil)
		if err != nil {
			return 0, "", err
		}
		if fp.Exit == 0 && strings.TrimSpace(string(fp.Stdout)) == plan.fingerprint {
			if strings.TrimSpace(string(res.Stdout)) == "0" {
				return installDone, "", nil
			}
			return installFailed, b.failedStep(ctx), nil
		}
	} else {
		for _, line := range []string{"test -e " + logPath, "pgrep -x installimage"} {
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
	if _, err := b.try(ctx, "unmount the installed root", "umount /mnt", nil); err != nil {
		return 0, "", err
	}
	res, err = b.try(ctx, "read the installed fingerprint", "mount "+plan.rootDev+" /mnt && cat /mnt"+installedFP, nil)
	if err != nil {
		return 0, "", err
	}
	if res.Exit == 0 && strings.TrimSpace(string(res.Stdout)) == plan.fingerprint {
		return installOnDisk, "", nil
	}
	if _, err := b.try(ctx, "unmount the installed root", "umount /mnt", nil); err != nil {
		return 0, "", err
	}
	return installNone, "", nil
}

// failedStep is the last "step: NAME" line of install.log, or the log's
// last line when no step was named.
func (b *run) failedStep(ctx context.Context) string {
	res, err := b.try(ctx, "read the install log", "cat "+logPath, nil)
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
// first, each over stdin into a umask 077 file, resolved at this moment)
// and starts it detached. A drop after the start line is not retried: the
// next look at the machine finds install.log and waits.
func (b *run) startInstall(ctx context.Context, plan installPlan) error {
	if _, err := b.must(ctx, "clear an earlier install", "rm -f "+exitPath+" "+logPath, nil); err != nil {
		return err
	}
	key, err := b.a.publicKey(ctx)
	if err != nil {
		return fail("read the public key of ssh_key "+b.a.sshKey+" from Robot", err)
	}
	for i, f := range b.req.Files {
		f, step := f, "deliver files["+strconv.Itoa(i)+"]"
		line := "umask 077 && mkdir -p " + filesDir + " && cat > " + filesDir + "/" + strconv.Itoa(i)
		if _, err := b.must(ctx, step, line, func(ctx context.Context) (io.Reader, error) { return b.content(ctx, i, f) }); err != nil {
			return err
		}
	}
	writes := []struct{ path, text string }{
		{keysPath, key + "\n"}, {confPath, plan.conf}, {scriptPath, plan.script}, {fpPath, plan.fingerprint + "\n"},
	}
	if plan.unit != "" {
		writes = append(writes, struct{ path, text string }{unitPath, plan.unit}, struct{ path, text string }{sumsPath, plan.sums})
	}
	for _, w := range writes {
		w := w
		line := "umask 077 && mkdir -p " + workDir + " && cat > " + w.path
		if _, err := b.must(ctx, "write "+w.path, line, func(context.Context) (io.Reader, error) { return strings.NewReader(w.text), nil }); err != nil {
			return err
		}
	}
	res, err := b.inRescue(ctx, "start the install", startLine, nil)
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
	v, err := b.a.c.secrets.Resolve(ctx, f.Ref)
	if err != nil {
		field := "files[" + strconv.Itoa(i) + "].content"
		return nil, &adapter.Error{Code: adapter.InvalidConfig, Field: field, Err: err,
			Message: field + ": secret reference " + f.Ref + " cannot be resolved; check that it names an existing secret"}
	}
	return strings.NewReader(v), nil
}

// awaitInstall polls install.exit until it exists; drops reconnect.
func (b *run) awaitInstall(ctx context.Context) error {
	return b.wait(ctx, "the installer on "+describe(b.s)+" to finish", b.phaseEnd, func(ctx context.Context) (bool, string, error) {
		res, err := b.inRescue(ctx, "poll the install", "cat "+exitPath, nil)
		if err != nil {
			return false, "installing (no answer)", err
		}
		return res.Exit == 0, "installing", nil
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
		return adapter.Errorf(adapter.InvalidState, "the installed system of %s has no readable host key at /etc/ssh/ssh_host_ed25519_key.pub; run again, which installs again", describe(b.s))
	}
	b.p.HostKey = key
	if mounted {
		_, _ = b.inRescue(ctx, "unmount the installed root", "umount /mnt", nil)
	}
	return nil
}
