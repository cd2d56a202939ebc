package instance_test

import (
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
)

// TestInstanceInterruptedCreateKeepsMachine: the create is committed and
// its answer lost, and while the look-up that would find it hangs, the
// apply is interrupted (Ctrl-C; a create timeout ends the same context).
// The machine is still found once more and saved, tainted, so a later
// apply that no longer wants it destroys it instead of leaving it behind
// unknown. The interrupt waits for the hanging look-up to arrive, so
// nothing depends on how fast the machine runs the apply.
func TestInstanceInterruptedCreateKeepsMachine(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	// The look-up before the create passes; the create is committed and
	// its answer lost; the look-up after it hangs until its client leaves.
	mustRule(t, e, faults.Rule{Method: "GET", Path: "/servers", Count: 1, DelayThenCommit: faults.Duration(time.Millisecond)})
	e.DropNext("POST", "/servers", 1)
	mustRule(t, e, faults.Rule{Method: "GET", Path: "/servers", Count: 1, DelayIfConnected: faults.Duration(time.Hour)})

	c := acctest.NewCLI(t, instance(e, "cut-1"))
	p := c.Start("apply", "-auto-approve", "-no-color")
	p.WaitFor("the look-up after the lost create", func() bool {
		st := e.Stats()
		return st["POST /servers"] == 1 && st["GET /servers"] >= 2
	})
	p.Interrupt()
	out, ok := p.Wait()
	if ok {
		t.Fatalf("the interrupted apply succeeded:\n%s", out)
	}
	if want := `was created, but the create was cut short`; !acctest.Match(want).MatchString(flat(out)) {
		t.Fatalf("the interrupted apply does not say the machine was kept (want %q):\n%s", want, out)
	}
	if n := len(e.Live()); n != 1 {
		t.Fatalf("the interrupted apply left %d servers, want the one committed", n)
	}
	if show := c.MustRun("state", "show", "-no-color", addr); !acctest.Match(`compute_instance\.web: \(tainted\)`).MatchString(show) {
		t.Fatalf("the kept machine is not in state, tainted:\n%s", show)
	}
	// The instance is no longer wanted: a machine the state knows is
	// destroyed, one it lost would stay behind.
	c.Config(e.Account())
	c.MustRun("apply", "-auto-approve")
	if n := len(e.Live()); n != 0 {
		t.Fatalf("%d servers after the instance was removed, want 0", n)
	}
}
