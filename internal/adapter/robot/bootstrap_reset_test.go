package robot

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/sshhost"
)

// heldClock is the wall clock, except that once hold reports true, every
// wait first lasts until release does: a retry then happens only after
// what the test waits for.
type heldClock struct {
	adapter.RealClock
	hold    func() bool
	release func()
}

func (c heldClock) After(d time.Duration) <-chan time.Time {
	if c.hold() {
		c.release()
	}
	return c.RealClock.After(d)
}

// TestBootstrapLostResetAnswerResetsOnce: the answer to the reset into
// rescue is lost after Robot did it, and the rescue system boots (spending
// the activation) before the provider retries. Sending the reset again
// would boot the machine from its empty disk, where the rescue system
// never answers; the bootstrap must see that the activation was spent and
// go on to a ready host with one reset into rescue.
func TestBootstrapLostResetAnswerResetsOnce(t *testing.T) {
	var e *metalEnv
	var m *sshhost.Machine
	var booted <-chan struct{}
	route := ""
	clock := heldClock{
		hold: func() bool {
			// The dropped reset is done: its rule is used up.
			if e == nil || route == "" {
				return false
			}
			for _, r := range e.robot.Faults().Rules() {
				if r.Path == route && r.Count > 0 {
					return false
				}
			}
			return m.Armed()
		},
		release: func() {
			<-booted
			// Robot spends the activation right after the boot.
			for m.Armed() {
				runtime.Gosched()
			}
		},
	}
	e = newMetalEnvOn(t, clock)
	id, mach := e.claim("node1")
	m = mach
	booted = m.BootedRescue()
	route = "/reset/" + id
	if err := e.robot.Faults().DropNext("POST", route, 1); err != nil {
		t.Fatal(err)
	}
	p, err := e.a.Bootstrap(context.Background(), id, e.request("node1"), adapter.Progress{}, nil)
	if err != nil || p.Phase != adapter.PhaseReady {
		t.Fatalf("bootstrap after a lost reset answer = %+v, %v; want ready", p, err)
	}
	for _, r := range e.robot.Faults().Rules() {
		if r.Path == route && r.Count > 0 {
			t.Fatalf("the reset's answer was never lost: %+v", r)
		}
	}
	// One reset into rescue, one software reset into the installed system.
	if resets := e.robot.Stats()["POST /reset/{id}"]; resets != 2 {
		t.Errorf("POST /reset/{id} sent %d times, want 2 (rescue once, then the reboot into the installed system); all: %v", resets, e.robot.Stats())
	}
	if n := m.Installs(); n != 1 {
		t.Errorf("installs = %d, want 1", n)
	}
}
