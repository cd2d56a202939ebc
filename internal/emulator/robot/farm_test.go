package robot_test

import (
	"errors"
	"fmt"
	"net/netip"
	"sync"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/metal"
)

// fakeFarm is a metal.Farm whose machines boot only when the test says so,
// so a test sees a machine between a reset and its boot.
type fakeFarm struct {
	mu       sync.Mutex
	machines map[int]*fakeMachine
	failAdd  bool
}

func newFakeFarm() *fakeFarm { return &fakeFarm{machines: map[int]*fakeMachine{}} }

func (f *fakeFarm) Add(number int, spec metal.Spec) (metal.Machine, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failAdd {
		return nil, errors.New("no machine left")
	}
	m := &fakeMachine{
		addr: netip.AddrFrom4([4]byte{127, 77, byte(number >> 8), byte(number)}), spec: spec, booted: "none",
		hostKeys: []metal.HostKey{{Type: "ED25519", Size: 256, SHA256: "SHA256:rescue" + netip.AddrFrom4([4]byte{127, 77, byte(number >> 8), byte(number)}).String(), MD5: "aa:bb"}},
		disarmed: make(chan struct{}, 16),
	}
	f.machines[number] = m
	return m, nil
}

func (f *fakeFarm) SSHPort() int { return 2222 }
func (f *fakeFarm) Close() error { return nil }

func (f *fakeFarm) machine(number int) *fakeMachine {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.machines[number]
}

type fakeMachine struct {
	addr     netip.Addr
	spec     metal.Spec
	hostKeys []metal.HostKey

	mu       sync.Mutex
	armed    bool
	arms     int
	keys     []string
	booted   string
	pending  bool // reset delivered, boot not yet finished
	resets   []string
	resetErr error
	wakes    int
	rescueCh chan struct{}
	disarmed chan struct{} // one value per Disarm call
}

func (m *fakeMachine) Addr() netip.Addr { return m.addr }
func (m *fakeMachine) RescueHostKeys() []metal.HostKey {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.hostKeys
}

// ArmRescue arms the machine with a fresh host key, as a real one makes
// for each activation.
func (m *fakeMachine) ArmRescue(keys []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.armed, m.keys = true, keys
	m.arms++
	m.hostKeys = []metal.HostKey{{Type: "ED25519", Size: 256, SHA256: fmt.Sprintf("SHA256:rescue%s#%d", m.addr, m.arms), MD5: "aa:bb"}}
}

func (m *fakeMachine) Disarm() {
	m.mu.Lock()
	m.armed, m.keys = false, nil
	m.mu.Unlock()
	m.disarmed <- struct{}{}
}

func (m *fakeMachine) Armed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.armed
}

func (m *fakeMachine) Reset(kind string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.resetErr != nil {
		return m.resetErr
	}
	m.resets = append(m.resets, kind)
	m.booted, m.pending = "booting", true
	return nil
}

func (m *fakeMachine) WakeOnLAN() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.wakes++
	return nil
}

func (m *fakeMachine) Booted() string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.booted
}

func (m *fakeMachine) BootedRescue() <-chan struct{} {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.rescueCh == nil {
		m.rescueCh = make(chan struct{})
	}
	return m.rescueCh
}

// boot finishes the pending boot: into rescue when armed, else the disk.
func (m *fakeMachine) boot() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if !m.pending {
		return
	}
	m.pending = false
	if !m.armed {
		m.booted = "none"
		return
	}
	m.booted = "rescue"
	if m.rescueCh != nil {
		close(m.rescueCh)
		m.rescueCh = nil
	}
}

func (m *fakeMachine) state() (armed bool, keys, resets []string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.armed, append([]string(nil), m.keys...), append([]string(nil), m.resets...)
}

var errBroken = errors.New("the reset line is broken")
