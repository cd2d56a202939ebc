package sshhost

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"slices"
	"sync"

	"golang.org/x/crypto/ssh"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/metal"
)

// What a machine runs, as Booted reports it.
const (
	stateOff       = "off"
	stateBooting   = "booting"
	stateRescue    = "rescue"
	stateInstalled = "installed"
	stateNone      = "none"
)

// Machine is one emulated dedicated server: a power state, a rescue flag,
// a persistent disk and, while a system runs, an SSH server on its address.
type Machine struct {
	farm   *Farm
	number int
	spec   metal.Spec
	addr   netip.Addr

	mu    sync.Mutex
	state string
	// rescueKey is the rescue system's host key of the last arming: Robot
	// makes fresh host keys for each activation, and the rescue system a
	// boot starts presents the ones of the activation it spent.
	rescueKey ssh.Signer
	// gen counts boots and power-offs; a boot that finishes under an older
	// generation was overtaken by a reset and does nothing.
	gen        int
	armed      bool
	armedKeys  []string
	rescueUp   chan struct{}
	sys        *system // the running system, nil unless rescue/installed
	disk       disk
	units      map[string]*UnitState
	installs   int
	faults     faults
	procs      map[string]int
	dropAfter  int    // commands left before every session is cut; 0 = off
	dropOn     string // a command line's start that cuts every session once it ran; "" = off
	bootCancel context.CancelFunc
}

var _ metal.Machine = (*Machine)(nil)

func newMachine(f *Farm, number int, spec metal.Spec, addr netip.Addr) (*Machine, error) {
	signer, err := newHostKey()
	if err != nil {
		return nil, err
	}
	spec.Disks = slices.Clone(spec.Disks)
	return &Machine{
		farm: f, number: number, spec: spec, addr: addr, rescueKey: signer,
		state: stateNone, units: map[string]*UnitState{}, procs: map[string]int{},
		bootCancel: func() {},
	}, nil
}

// Number is the machine's number in its webservice.
func (m *Machine) Number() int { return m.number }

// Addr is the loopback address the machine's SSH server listens on.
func (m *Machine) Addr() netip.Addr { return m.addr }

// SSHAddr is Addr with the farm's port, what a client dials.
func (m *Machine) SSHAddr() string {
	return netip.AddrPortFrom(m.addr, uint16(m.farm.port)).String()
}

// newHostKey is a fresh ed25519 host key.
func newHostKey() (ssh.Signer, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	return ssh.NewSignerFromKey(priv)
}

// RescueHostKey is the rescue system's host public key of the last
// arming (the one a boot into rescue presents), for tests that pin it.
func (m *Machine) RescueHostKey() ssh.PublicKey {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.rescueKey.PublicKey()
}

// RescueHostKeys announces the rescue system's one ed25519 host key, of
// the last arming.
func (m *Machine) RescueHostKeys() []metal.HostKey {
	pub := m.RescueHostKey()
	return []metal.HostKey{{
		Type: "ED25519", Size: 256,
		SHA256: ssh.FingerprintSHA256(pub), MD5: ssh.FingerprintLegacyMD5(pub),
	}}
}

// ArmRescue makes the next boot start rescue admitting these keys, with a
// fresh host key, as each of Robot's activations announces its own.
func (m *Machine) ArmRescue(authorizedKeys []string) {
	signer, err := newHostKey()
	m.mu.Lock()
	defer m.mu.Unlock()
	if err == nil {
		// crypto/rand does not fail on the systems this runs on; were it
		// to, the last key stays, which a pinning client still checks.
		m.rescueKey = signer
	}
	m.armed = true
	m.armedKeys = slices.Clone(authorizedKeys)
}

// Disarm makes the next boot start from the disk.
func (m *Machine) Disarm() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.armed = false
	m.armedKeys = nil
}

// Armed reports whether the next boot starts rescue.
func (m *Machine) Armed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.armed
}

// Booted reports "off", "booting", "rescue", "installed" or "none".
func (m *Machine) Booted() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state
}

// BootedRescue returns a channel closed when the machine next finished
// booting into rescue.
func (m *Machine) BootedRescue() <-chan struct{} {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.rescueUp == nil {
		m.rescueUp = make(chan struct{})
	}
	return m.rescueUp
}

// Reset delivers a reset of the webservice's kind. A software reset is an
// ACPI request: only a running system acts on it, and one with the
// IgnoreSoftReset fault ignores it, as a hung OS does; the reset still
// counts as delivered, as Robot reports it.
func (m *Machine) Reset(kind string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	switch kind {
	case "sw":
		if m.state == stateOff {
			return errors.New("machine is off: a software reset needs a running system")
		}
		if m.sys == nil || m.faults.ignoreSoftReset {
			return nil
		}
		m.bootLocked()
	case "hw":
		m.bootLocked()
	case "power":
		if m.state == stateOff {
			m.bootLocked()
		} else {
			m.offLocked()
		}
	case "power_long":
		m.offLocked()
	default:
		return fmt.Errorf("unknown reset type %q: want sw, hw, power or power_long", kind)
	}
	return nil
}

// WakeOnLAN starts a machine that is off.
func (m *Machine) WakeOnLAN() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.state == stateOff {
		m.bootLocked()
	}
	return nil
}

// reboot is the running system's own restart (the reboot command): it
// does not go through ACPI, so IgnoreSoftReset does not stop it.
func (m *Machine) reboot(sys *system) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.sys == sys {
		m.bootLocked()
	}
}

func (m *Machine) powerOff() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.offLocked()
}

// offLocked stops whatever runs: its SSH server, its sessions and its
// detached work all end, and the rescue system's filesystem is gone.
func (m *Machine) offLocked() {
	m.gen++
	m.bootCancel()
	m.bootCancel = func() {}
	if m.sys != nil {
		m.sys.stop()
		m.sys = nil
	}
	m.procs = map[string]int{}
	m.state = stateOff
}

// bootLocked starts a boot that ends after the farm's BootDelay. During
// it nothing listens on the machine's address, so a client is refused, as
// it is by a real host that has no sshd yet.
func (m *Machine) bootLocked() {
	m.offLocked()
	m.state = stateBooting
	gen := m.gen
	ctx, cancel := context.WithCancel(context.Background())
	m.bootCancel = cancel
	after := m.farm.clock.After(m.farm.opts.BootDelay)
	go func() {
		select {
		case <-after:
			m.finishBoot(ctx, gen)
		case <-ctx.Done():
		}
	}()
}

func (m *Machine) finishBoot(ctx context.Context, gen int) {
	m.mu.Lock()
	if gen != m.gen {
		m.mu.Unlock()
		return
	}
	m.bootLockedDone(ctx)
	booted := m.state
	m.mu.Unlock()
	if hook := m.farm.opts.OnBoot; hook != nil {
		hook(m.number, booted)
	}
}

func (m *Machine) bootLockedDone(ctx context.Context) {
	switch {
	case m.armed:
		m.state = stateRescue
		m.startLocked(ctx, newRescueSystem(m, m.armedKeys))
		if m.rescueUp != nil {
			close(m.rescueUp)
			m.rescueUp = nil
		}
	case m.disk.fs != nil:
		m.state = stateInstalled
		sys, err := newInstalledSystem(m)
		if err != nil {
			// A disk whose host key cannot be read boots without sshd.
			return
		}
		m.runUnitsLocked()
		m.startLocked(ctx, sys)
	default:
		m.state = stateNone
	}
}

// startLocked opens the system's SSH server. A listen error leaves the
// system running with nothing answering, which a client sees as a host
// that never came up.
func (m *Machine) startLocked(ctx context.Context, sys *system) {
	ln, err := net.Listen("tcp", m.SSHAddr())
	if err != nil {
		return
	}
	sys.ctx = ctx
	sys.ln = ln
	m.sys = sys
	go sys.serve()
}
