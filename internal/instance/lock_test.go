package instance_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestInterruptedApplyWithALockingBackend is what the interrupted-applies
// guide tells a user of a locking backend: the killed apply leaves its lock,
// the rerun stops at once with "Error acquiring the state lock" and the
// lock's ID, creating nothing; terraform force-unlock with that ID releases
// it, and the rerun then adopts the machines with no clean-up by hand.
func TestInterruptedApplyWithALockingBackend(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	remote := acctest.NewLockingStateBackend(t)
	c := acctest.NewInitCLI(t, remote.Block(), "")
	c.Write("instances.tf", killConfig(e, "on", false))
	killedAfterCommit(t, e, c)
	held := remote.LockID()
	if held == "" {
		t.Fatal("the killed apply holds no lock; the backend does not lock, so the test proves nothing")
	}
	creates := calls(e, "POST /servers")

	out, err := c.Run("apply", "-auto-approve", "-input=false")
	flat := strings.Join(strings.Fields(out), " ")
	if err == nil || !strings.Contains(flat, "Error acquiring the state lock") {
		t.Fatalf("the rerun with the lock held did not stop on it (%v):\n%s", err, out)
	}
	// The http backend names the lock held in its message (ID=...); its
	// Lock Info block shows the lock the rerun tried to take.
	m := regexp.MustCompile(`already locked:\s+ID=(\S+)`).FindStringSubmatch(out)
	if m == nil || m[1] != held {
		t.Fatalf("the error shows lock id %v, want %s:\n%s", m, held, out)
	}
	if n := calls(e, "POST /servers"); n != creates {
		t.Errorf("the locked-out rerun sent %d creates", n-creates)
	}

	c.MustRun("force-unlock", "-force", m[1])
	if id := remote.LockID(); id != "" {
		t.Fatalf("force-unlock left the lock %s", id)
	}
	out = c.MustRun("apply", "-auto-approve", "-input=false")
	if !strings.Contains(out, "Warning: Instance adopted") {
		t.Errorf("the rerun after the unlock adopted nothing:\n%s", out)
	}
	agree(t, e, rawInstances(t, remote.State()), killNames...)
	if n := calls(e, "POST /servers"); n != creates {
		t.Errorf("the rerun sent %d more creates; it should adopt", n-creates)
	}
	if id := remote.LockID(); id != "" {
		t.Errorf("the finished apply left the lock %s", id)
	}
	emptyPlan(t, c)
	c.MustRun("destroy", "-auto-approve", "-input=false")
	if live := e.Live(); len(live) != 0 {
		t.Errorf("servers left after destroy: %+v", live)
	}
}
