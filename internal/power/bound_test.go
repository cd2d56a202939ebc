package power

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// events is what the fakes saw, in order.
type events struct {
	mu  sync.Mutex
	log []string
}

func (e *events) add(s string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.log = append(e.log, s)
}

func (e *events) first(s string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	for i, l := range e.log {
		if l == s {
			return i
		}
	}
	return -1
}

// armClock notes each timer of the shutdown_timeout's length, which fires at
// once; every other delay (a retry's backoff) passes at once too.
type armClock struct {
	ev    *events
	bound time.Duration
}

func (c armClock) Now() time.Time { return time.Now() }
func (c armClock) After(d time.Duration) <-chan time.Time {
	if d == c.bound {
		c.ev.add("bound armed")
	}
	ch := make(chan time.Time, 1)
	ch <- time.Now()
	return ch
}

// deafGuest can reboot and reset; its reboots fail, as a guest's whose
// reboot the backend gave up on.
type deafGuest struct{ ev *events }

func (deafGuest) Kind() string                                                       { return "deaf" }
func (deafGuest) ListOffers(context.Context, adapter.Query) ([]adapter.Offer, error) { return nil, nil }
func (deafGuest) Get(context.Context, string) (adapter.Machine, error) {
	return adapter.Machine{}, adapter.Errorf(adapter.Transient, "not asked")
}
func (deafGuest) Delete(context.Context, string) error { return nil }
func (deafGuest) Create(context.Context, adapter.Call, adapter.CreateRequest) (adapter.Machine, error) {
	return adapter.Machine{}, adapter.Errorf(adapter.Transient, "not asked")
}
func (g deafGuest) Power(_ context.Context, _ string, a adapter.PowerAction) error {
	g.ev.add(string(a) + " answered")
	if a == adapter.PowerReboot {
		return adapter.Errorf(adapter.Transient, "the guest did not answer")
	}
	return nil
}

// TestRestartBoundStartsOnceAsked: shutdown_timeout is the guest's time to
// act once it has the reboot request, so its timer starts when the first
// reboot is answered. Counted from before the request, a slow API or a busy
// machine spent it before the guest was asked, and the machine was reset
// without a reboot. The clock fires every timer at once, so the order
// alone decides, on a machine of any speed.
func TestRestartBoundStartsOnceAsked(t *testing.T) {
	const bound = 7 * time.Second
	ev := &events{}
	p := Path{Clock: armClock{ev: ev, bound: bound}}
	acc := adapter.NewCached(deafGuest{ev: ev}, p.Clock, 0).
		Declare(adapter.Capabilities{adapter.CapPower, adapter.PowerReboot.Capability(), adapter.PowerReset.Capability()})
	var diags diag.Diagnostics
	if err := p.restart(context.Background(), acc, "7", bound, &diags); err != nil {
		t.Fatalf("restart: %v", err)
	}
	asked, armed, reset := ev.first("reboot answered"), ev.first("bound armed"), ev.first("reset answered")
	if asked < 0 || armed < asked || reset < armed {
		t.Fatalf("events %v: want the reboot answered, then the bound armed, then the reset", ev.log)
	}
	if diags.WarningsCount() != 1 {
		t.Errorf("diagnostics %v, want the reset warned about", diags)
	}
}
