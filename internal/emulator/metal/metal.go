// Package metal is the seam between an emulated dedicated-server API (the
// Robot emulator) and the emulated machines behind it (the SSH emulator,
// which plays their rescue and installed systems). The API emulator decides
// what the webservice answers; a Machine decides what answers on SSH after a
// reset. It imports nothing of the project, so either side can be replaced
// by a fake in the other's tests.
package metal

import (
	"net/netip"
	"time"
)

// Farm makes the machines an API emulator hands out.
type Farm interface {
	// Add makes machine number: powered on, booted from its (empty) disk,
	// listening on its own loopback address once it runs an SSH server.
	Add(number int, spec Spec) (Machine, error)
	// SSHPort is the port every machine's SSH server listens on, each on its
	// own address (the webservice reports addresses, never ports, so every
	// machine of one farm shares one port on its own loopback address).
	SSHPort() int
	// Close stops every machine.
	Close() error
}

// Spec is what a machine is made of, as its product describes it.
type Spec struct {
	// Disks are the drive kinds, one entry per drive: "nvme" or "sata".
	Disks []string
	// UUID is the SMBIOS product UUID dmidecode reports.
	UUID string
}

// Machine is one emulated dedicated server.
type Machine interface {
	// Addr is the loopback address its SSH server listens on, which the
	// webservice reports as the server's IPv4 address.
	Addr() netip.Addr
	// RescueHostKeys are the rescue system's host keys of the last
	// arming, which the webservice announces when rescue is activated or
	// the server is delivered.
	RescueHostKeys() []HostKey
	// ArmRescue makes the next boot start the rescue system, admitting
	// the given OpenSSH public keys ("ssh-ed25519 AAAA…") for root, with
	// fresh host keys, as each of Robot's activations announces its own;
	// Disarm undoes it. The webservice disarms by itself once the machine
	// booted into rescue, as Robot does, so a reset after that boots the
	// disk.
	ArmRescue(authorizedKeys []string)
	Disarm()
	// Armed reports whether the next boot starts the rescue system.
	Armed() bool
	// Reset restarts the machine as the webservice's reset type says:
	// "sw" (ACPI, needs a running system that honours it), "hw" (hardware
	// reset), "power" (power button: off when on, on when off),
	// "power_long" (forced off). It returns once the reset was delivered;
	// the machine boots on its own time. An error means the reset could
	// not be delivered (the webservice answers RESET_FAILED).
	Reset(kind string) error
	// WakeOnLAN starts a machine that is off; it does nothing to one that
	// is on.
	WakeOnLAN() error
	// Booted reports what the machine runs now: "off", "booting",
	// "rescue", "installed" or "none" (no bootable system on the disk).
	Booted() string
	// BootedRescue returns a channel closed the next time the machine
	// finished booting into the rescue system, so the webservice can
	// disarm rescue then.
	BootedRescue() <-chan struct{}
}

// HostKey is one host key as the webservice announces it.
type HostKey struct {
	// Type is Robot's name for the key type: "ED25519", "RSA", "ECDSA".
	Type string
	// Size is the key's size in bits.
	Size int
	// SHA256 is the OpenSSH SHA-256 fingerprint, "SHA256:…" (base64,
	// unpadded); MD5 is the legacy colon-separated hex fingerprint.
	SHA256 string
	MD5    string
}

// BootDelay is how long an emulated machine takes to boot unless its farm
// is told otherwise: short, so tests wait milliseconds, yet not zero, so a
// caller that does not wait for the boot is caught.
const BootDelay = 50 * time.Millisecond
