package adapter

import (
	"context"
	"errors"
	"time"
)

// The bootstrap contract (this file and bootstrap_rules.go) is what
// compute_bootstrap_host asks of an adapter that declares CapBootstrap. It
// is general to backends of dedicated machines, not one backend's: a rescue
// system reached over SSH, an unattended installer, secrets delivered over
// stdin and a first-boot program are how such a machine becomes a host,
// and the resource names no backend. It stays beside the core types rather
// than in a sub-package because Capabilities.Implemented names Bootstrapper
// and Identifier, and a sub-package would need this one for its errors and
// secret references: the two would import each other.

// Phase is where the bootstrap of a dedicated machine stands.
// The phases run in this order; each is idempotent, and an adapter re-derives
// from the machine itself what a caller that lost its progress (an apply
// killed before Terraform saved it) no longer knows, so a bootstrap run again
// continues and never installs twice.
type Phase string

// The phases.
const (
	// PhaseClaiming finds or orders the machine and writes the claim (Create).
	PhaseClaiming Phase = "claiming"
	// PhaseRescue boots the rescue system with the account's SSH key and
	// waits until it answers with the host key the backend announced.
	PhaseRescue Phase = "rescue"
	// PhaseIdentifying reads the machine's SMBIOS UUID in rescue.
	PhaseIdentifying Phase = "identifying"
	// PhaseInstalling delivers the files over SSH stdin and runs the
	// unattended installer, detached, until it finished.
	PhaseInstalling Phase = "installing"
	// PhaseRebooting boots the installed system, escalating from a software
	// to a hardware reset, and leaves rescue.
	PhaseRebooting Phase = "rebooting"
	// PhaseReady: the installed system answers with the host key learned in
	// rescue and the readiness check passed.
	PhaseReady Phase = "ready"
	// PhaseFailed: a phase failed for a reason that retrying cannot fix;
	// Progress.FailedPhase and Progress.Reason say which and why.
	PhaseFailed Phase = "failed"
)

// Phases lists the phases of a bootstrap that succeeds, in order.
var Phases = []Phase{PhaseClaiming, PhaseRescue, PhaseIdentifying, PhaseInstalling, PhaseRebooting, PhaseReady}

// BootstrapRequest is what the installed machine is to become. File
// contents are secrets: an adapter streams them to the machine over SSH
// stdin and never puts them in a log, an error, a command line, a script or
// an environment variable.
type BootstrapRequest struct {
	// Image is the operating system image the installer writes, as the
	// backend names it (Robot: "Ubuntu-2404-noble-amd64-base").
	Image string
	// Hostname of the installed system.
	Hostname string
	// Disks is the disk layout: DisksAuto unless the user chose one.
	Disks DiskLayout
	// Files are delivered onto the installed system before its first boot.
	Files []File
	// FirstBoot, when set, is installed as a oneshot unit that runs once
	// the installed system is up, and is safe to run again.
	FirstBoot *FirstBoot
	// ReadyCommand, when set, is the argv that must exit 0 on the installed
	// system for it to be ready; without it, ready means the first-boot unit
	// succeeded (or, without FirstBoot, that the system answers on SSH).
	ReadyCommand []string
	// Timeouts bound each phase; a phase without one uses the adapter's
	// default. A phase that runs out fails with Transient, so the caller
	// can tell "not yet" from "never".
	Timeouts map[Phase]time.Duration
}

// DiskLayout names how the installer lays out the disks.
type DiskLayout string

// The layouts.
const (
	// DisksAuto is software RAID 1 over the NVMe drives when the machine
	// has two or more, else over the SATA drives, else one disk.
	DisksAuto DiskLayout = "auto"
	// DisksRAID1 is software RAID 1 over all drives of the same kind.
	DisksRAID1 DiskLayout = "raid1"
	// DisksSingle installs onto the first drive only.
	DisksSingle DiskLayout = "single"
)

// File is one file delivered onto the installed system. Exactly one of Ref
// and Value is set: Ref is a secret reference (ParseRef) resolved only when
// the content is streamed, Value a write-only value the caller holds in
// memory and never stores.
type File struct {
	Path  string // absolute path on the installed system
	Mode  string // octal, e.g. "0600"
	Ref   string
	Value []byte
	// Version is what the caller says changes with a Value it does not
	// keep (content_wo_version): it enters InstallFingerprint, so new
	// content installs again, where the content itself never may.
	Version string
}

// FirstBoot is the program the installed system runs on its first boot: the
// binary at URL (https only), checked against SHA256 before it is installed,
// started with Command (argv; Command[0] is where the binary is installed).
type FirstBoot struct {
	URL     string
	SHA256  string // lower-case hex
	Command []string
}

// Progress is how far a bootstrap got, kept by the caller (Terraform state)
// and handed back on the next call. Everything in it is safe to store: host
// keys are public, and no secret, file content or password ever enters it.
type Progress struct {
	Phase Phase
	// FailedPhase and Reason say where and why a bootstrap is PhaseFailed.
	FailedPhase Phase
	Reason      string
	// ProductUUID is the machine's SMBIOS UUID, read in rescue.
	ProductUUID string
	// RescueHostKey is the rescue system's host key as the backend
	// announced it, "TYPE FINGERPRINT" (e.g. "ED25519 SHA256:…"), the pin
	// every rescue session is checked against.
	RescueHostKey string
	// HostKey is the installed system's public host key in authorized_keys
	// form ("ssh-ed25519 AAAA…"), learned over the pinned rescue session
	// before the first reboot.
	HostKey string
	// InstallFingerprint digests what was installed (image, disks, hostname,
	// file paths and versions, first boot): an installed machine whose
	// fingerprint matches is never installed again.
	InstallFingerprint string
}

// Bootstrapper turns a claimed machine (one Create returned) into a host. It
// runs the phases after PhaseClaiming, starting from p, and returns the
// progress reached; report is called whenever the phase changes, so the
// caller can log it. The caller saves what it gets back, error or not. On
// error the progress returned is PhaseFailed, with FailedPhase the phase
// that failed and Reason saying why (never a secret), and the error carries
// its code: Transient for a phase that ran out of time or a machine that
// stopped answering (running again continues), InvalidState for an
// installer or first boot that failed (running again after the cause is
// fixed installs again: a failure the call finds on the machine and did
// not cause itself is an earlier attempt's, and is run anew, whatever p
// says), AccessDenied for a host key that does not match
// its pin (nothing was sent to that host; the error wraps
// ErrHostKeyMismatch) and for credentials the backend refused.
type Bootstrapper interface {
	Bootstrap(ctx context.Context, id string, req BootstrapRequest, p Progress, report func(Progress)) (Progress, error)
}

// ErrHostKeyMismatch is wrapped by the AccessDenied error of a host whose
// key is not the pinned one. AccessDenied alone does not tell it from a
// refused password or token, and the way out differs: a mismatch means
// another host answers, or the key was announced anew, not that a
// credential is wrong.
var ErrHostKeyMismatch = errors.New("the host key does not match its pin")

// HostKeyMismatch reports whether err is a host key that did not match its
// pin.
func HostKeyMismatch(err error) bool { return errors.Is(err, ErrHostKeyMismatch) }

// Identifier reads a machine's SMBIOS product UUID, the identity that
// survives reinstalls and renames.
type Identifier interface {
	Identify(ctx context.Context, id string) (string, error)
}
