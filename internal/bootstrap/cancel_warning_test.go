package bootstrap_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestRobotHostCancelWarning: a plan that replaces the host (a new image)
// or destroys it says, as a warning naming the host and its server, that
// the rental is cancelled when the account recorded in state sets
// cancel_on_destroy, and says nothing of it when the account does not.
func TestRobotHostCancelWarning(t *testing.T) {
	t.Parallel()
	m := acctest.NewMetal(t)
	n, _ := m.AddServer(t, "")
	const warning = "Machine's rental will be cancelled"
	newImage := func(cfg string) string {
		return strings.Replace(cfg, fmt.Sprintf("image      = %q", robotImage), `image      = "Debian-1208-bookworm-amd64-base"`, 1)
	}
	keeping, cancelling := robotHostAs(m, n, "", "", ""), robotHostAs(m, n, "", "", "", `cancel_on_destroy = true`)
	c := acctest.NewCLI(t, keeping)
	c.MustRun("apply", "-auto-approve")
	c.Config(newImage(keeping))
	if out := c.MustRun("plan"); strings.Contains(out, warning) || !strings.Contains(out, "must be replaced") {
		t.Fatalf("a replacement on an account that keeps rentals: want a replacement without the cancel warning:\n%s", out)
	}
	c.Config(cancelling)
	c.MustRun("apply", "-auto-approve")
	want := fmt.Sprintf(`Warning: %s.*replaces bootstrap host "db-1": machine %d is released through account "[^"]+" \(hetzner_robot at .*cancel_on_destroy is "true"`, warning, n)
	c.Config(newImage(cancelling))
	if out := c.MustRun("plan"); !acctest.Match(want).MatchString(out) {
		t.Fatalf("a replacement that cancels the rental does not say so (want %s):\n%s", want, out)
	}
	c.Config(cancelling)
	if out := c.MustRun("plan", "-destroy"); !acctest.Match(strings.Replace(want, "replaces", "destroys", 1)).MatchString(out) {
		t.Fatalf("a destroy that cancels the rental does not say so:\n%s", out)
	}
	c.MustRun("destroy", "-auto-approve")
	if err := m.CheckCancelled(n)(nil); err != nil {
		t.Fatal(err)
	}
}
