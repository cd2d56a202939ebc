package robot

import (
	"context"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	robotemu "github.com/seedcompute/terraform-provider-compute/internal/emulator/robot"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/sshhost"
)

// steppingClock is the wall clock, except that while stepping is set every
// wait returns at once and moves Now a minute on: a machine left alone for
// minutes, in no time.
type steppingClock struct {
	stepping atomic.Bool
	offset   atomic.Int64
}

func (c *steppingClock) Now() time.Time { return time.Now().Add(time.Duration(c.offset.Load())) }

func (c *steppingClock) After(d time.Duration) <-chan time.Time {
	if !c.stepping.Load() {
		return time.After(d)
	}
	c.offset.Add(int64(time.Minute))
	ch := make(chan time.Time, 1)
	ch <- c.Now()
	return ch
}

// gatedClock is the farm's wall clock, whose timers start only once open
// is closed: a boot begun before then waits for it.
type gatedClock struct{ open <-chan struct{} }

func (gatedClock) Now() time.Time { return time.Now() }

func (c gatedClock) After(d time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	go func() {
		<-c.open
		ch <- <-time.After(d)
	}()
	return ch
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestBootstrapRecoversFromABootThatMissedRescue: the answer to the reset
// into rescue is lost after Robot did it; the retry reads the activation
// still standing, and the first reset's boot spends it before the second
// reset arrives, which then boots the empty disk. Once the grace has passed
// with nothing answering as rescue and the activation spent, the bootstrap
// arms rescue again (once), pins and reports the new activation's host key
// before it resets, and goes on to a ready host; no other server is
// touched. Killed between arming again and the reset, the run again finds
// the new activation armed with its pin, resets into it and goes on the
// same way.
func TestBootstrapRecoversFromABootThatMissedRescue(t *testing.T) {
	t.Run("in one run", func(t *testing.T) { missedRescue(t, false) })
	t.Run("killed after arming again", func(t *testing.T) { missedRescue(t, true) })
}

func missedRescue(t *testing.T, kill bool) {
	clock := &steppingClock{}
	gate := make(chan struct{})
	var gateOnce, upOnce sync.Once
	openGate := func() { gateOnce.Do(func() { close(gate) }) }
	t.Cleanup(openGate)
	rescueUp := make(chan struct{})
	var num atomic.Int64
	var bootsMu sync.Mutex
	boots := map[int][]string{}
	e := newMetalEnvWith(t, clock, sshhost.Options{
		Clock: gatedClock{open: gate},
		OnBoot: func(n int, booted string) {
			bootsMu.Lock()
			boots[n] = append(boots[n], booted)
			bootsMu.Unlock()
			if int64(n) != num.Load() {
				return
			}
			switch booted {
			case "rescue":
				upOnce.Do(func() { close(rescueUp) })
			case "none":
				// The boot missed rescue: let minutes pass.
				clock.stepping.Store(true)
			}
		},
	})
	id, m := e.claim("node1")
	num.Store(int64(m.Number()))
	other, err := e.robot.AddServer(robotemu.ServerSeed{})
	if err != nil {
		t.Fatal(err)
	}

	var pinMu sync.Mutex
	var pins []string
	pinAtLastReset := ""
	var resets, arms atomic.Int32
	e.a.c.HTTP.Transport = roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if err := req.Context().Err(); err != nil {
			// A killed run sends nothing more.
			return nil, err
		}
		path := req.URL.Path
		switch {
		case req.Method == http.MethodPost && strings.HasSuffix(path, "/reset/"+id):
			switch resets.Add(1) {
			case 2:
				// The second reset reaches Robot after the first one's
				// boot started rescue and spent the activation.
				select {
				case <-rescueUp:
				case <-time.After(time.Minute):
					t.Error("the first reset's boot never reached rescue")
				}
				for m.Armed() {
					runtime.Gosched()
				}
			case 3:
				pinMu.Lock()
				if len(pins) > 0 {
					pinAtLastReset = pins[len(pins)-1]
				}
				pinMu.Unlock()
			}
		case req.Method == http.MethodPost && strings.HasSuffix(path, "/boot/"+id+"/rescue"):
			if arms.Add(1) == 2 {
				clock.stepping.Store(false)
			}
		}
		resp, err := http.DefaultTransport.RoundTrip(req)
		if req.Method == http.MethodGet && strings.HasSuffix(path, "/boot/"+id+"/rescue") && resets.Load() == 1 {
			// The retry read the activation standing: the first reset's
			// boot may go on now.
			openGate()
		}
		return resp, err
	})
	if err := e.robot.Faults().DropNext("POST", "/reset/"+id, 1); err != nil {
		t.Fatal(err)
	}

	req := e.request("node1")
	req.Timeouts[adapter.PhaseRescue] = DefaultTimeouts[adapter.PhaseRescue]
	ctx, kill1 := context.WithCancel(context.Background())
	defer kill1()
	report := func(p adapter.Progress) {
		pinMu.Lock()
		defer pinMu.Unlock()
		if n := len(pins); p.RescueHostKey != "" && (n == 0 || pins[n-1] != p.RescueHostKey) {
			pins = append(pins, p.RescueHostKey)
			if kill && len(pins) == 2 {
				kill1()
			}
		}
	}
	p, err := e.a.Bootstrap(ctx, id, req, adapter.Progress{}, report)
	if kill {
		if err == nil || p.Phase != adapter.PhaseFailed || p.FailedPhase != adapter.PhaseRescue || p.RescueHostKey != lastPin(&pinMu, &pins) {
			t.Fatalf("bootstrap killed after arming again = %+v, %v; want it stopped in rescue with the new pin", p, err)
		}
		p, err = e.a.Bootstrap(context.Background(), id, req, p, report)
	}
	if err != nil || p.Phase != adapter.PhaseReady {
		t.Fatalf("bootstrap after a boot that missed rescue = %+v, %v; want ready", p, err)
	}

	bootsMu.Lock()
	seen, otherBoots := boots[m.Number()], boots[other.Number]
	bootsMu.Unlock()
	if want := "rescue none rescue installed"; strings.Join(seen, " ") != want {
		t.Errorf("the machine booted %q, want %q (the second reset missed rescue)", seen, want)
	}
	stats := e.robot.Stats()
	if n := stats["POST /boot/{id}/rescue"]; n != 2 {
		t.Errorf("rescue armed %d times, want 2 (once, and once again after the missed boot); all: %v", n, stats)
	}
	if n := stats["POST /reset/{id}"]; n != 4 {
		t.Errorf("POST /reset/{id} sent %d times, want 4 (lost, missed, after arming again, into the installed system); all: %v", n, stats)
	}
	want := "ED25519 " + m.RescueHostKeys()[0].SHA256
	pinMu.Lock()
	reported := append([]string(nil), pins...)
	atReset := pinAtLastReset
	pinMu.Unlock()
	if len(reported) != 2 || reported[1] != want || p.RescueHostKey != want {
		t.Errorf("pins reported %q, progress %q; want the first activation's, then the new one %q", reported, p.RescueHostKey, want)
	}
	if atReset != want {
		t.Errorf("the reset after arming again went out with %q reported, want the new pin %q", atReset, want)
	}
	if n := m.Installs(); n != 1 {
		t.Errorf("installs = %d, want 1", n)
	}
	if om, ok := e.farm.Machine(other.Number); !ok || len(otherBoots) != 0 || om.Armed() {
		t.Errorf("the other server was touched: boots %q, armed %v", otherBoots, ok && om.Armed())
	}
	logged := e.log.Text()
	if n := strings.Count(logged, "the boot missed the rescue system"); n != 1 {
		t.Errorf("%d log lines say the boot missed rescue, want 1", n)
	}
	e.noSecrets(err)
}

func lastPin(mu *sync.Mutex, pins *[]string) string {
	mu.Lock()
	defer mu.Unlock()
	if len(*pins) == 0 {
		return ""
	}
	return (*pins)[len(*pins)-1]
}

// TestBootstrapSaysRearmsDidNotHelp: every boot of a server misses rescue
// (its activation is withdrawn as each reset is sent, and the disk is
// empty). The phase arms rescue again twice, not more, and its timeout
// says so, with the way on.
func TestBootstrapSaysRearmsDidNotHelp(t *testing.T) {
	clock := &steppingClock{}
	var num atomic.Int64
	e := newMetalEnvWith(t, clock, sshhost.Options{
		OnBoot: func(n int, booted string) {
			if int64(n) == num.Load() && booted == "none" {
				clock.stepping.Store(true)
			}
		},
	})
	id, m := e.claim("node1")
	num.Store(int64(m.Number()))
	// The activation is withdrawn before each reset reaches Robot, so no
	// boot can take it first, however busy the machine.
	e.a.c.HTTP.Transport = roundTripFunc(func(req *http.Request) (*http.Response, error) {
		if req.Method == http.MethodPost && strings.HasSuffix(req.URL.Path, "/reset/"+id) {
			if derr := e.a.deactivateRescue(req.Context(), m.Number()); derr != nil {
				t.Errorf("withdraw the activation: %v", derr)
			}
		}
		return http.DefaultTransport.RoundTrip(req)
	})
	req := e.request("node1")
	// Room for more graces than re-arms: the bound, not the phase, stops
	// them.
	req.Timeouts[adapter.PhaseRescue] = 30 * time.Minute
	p, err := e.a.Bootstrap(context.Background(), id, req, adapter.Progress{}, nil)
	if err == nil || adapter.CodeOf(err) != adapter.Transient || p.FailedPhase != adapter.PhaseRescue {
		t.Fatalf("bootstrap whose boots all miss rescue = %+v, %v; want a Transient timeout in phase rescue", p, err)
	}
	for _, want := range []string{"within the phase's timeout of 30m0s", "armed again and the server reset 2 time(s), which did not help", "run again to continue"} {
		if !strings.Contains(err.Error(), want) || !strings.Contains(p.Reason, want) {
			t.Errorf("the timeout does not say %q:\n%v", want, err)
		}
	}
	stats := e.robot.Stats()
	if arms, resets := stats["POST /boot/{id}/rescue"], stats["POST /reset/{id}"]; arms != 3 || resets != 3 {
		t.Errorf("rescue armed %d times and reset %d times, want 3 and 3 (once, and twice again)", arms, resets)
	}
	if c := m.Commands(); len(c) != 0 {
		t.Errorf("the machine ran %d commands, the first %q", len(c), c[0].Line)
	}
}
