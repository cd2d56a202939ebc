package instance_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestRobotInstanceCancelWarning: compute_instance on a Robot account that
// cancels rentals warns, naming the instance and its server, when a plan
// replaces it (another offer), and not on an account that keeps them.
func TestRobotInstanceCancelWarning(t *testing.T) {
	t.Parallel()
	m := acctest.NewMetal(t)
	n, _ := m.AddServer(t, "AX42")
	m.AddServer(t, "EX44")
	const warning = "Machine's rental will be cancelled"
	otherOffer := func(cfg string) string { return strings.Replace(cfg, `offer_id = "AX42"`, `offer_id = "EX44"`, 1) }
	keeping, cancelling := robotInstanceAs(m, "", "", ""), robotInstanceAs(m, "", "", "", `cancel_on_destroy = true`)
	c := acctest.NewCLI(t, keeping)
	c.MustRun("apply", "-auto-approve")
	c.Config(otherOffer(keeping))
	if out := c.MustRun("plan"); strings.Contains(out, warning) || !strings.Contains(out, "must be replaced") {
		t.Fatalf("a replacement on an account that keeps rentals: want a replacement without the cancel warning:\n%s", out)
	}
	c.Config(cancelling)
	c.MustRun("apply", "-auto-approve")
	c.Config(otherOffer(cancelling))
	want := fmt.Sprintf(`Warning: %s.*replaces instance "web-1": machine %d is deleted through account "[^"]+" \(hetzner_robot at .*cancel_on_destroy is "true"`, warning, n)
	if out := c.MustRun("plan"); !acctest.Match(want).MatchString(out) {
		t.Fatalf("a replacement that cancels the rental does not say so (want %s):\n%s", want, out)
	}
	c.Config(cancelling)
	destroys := fmt.Sprintf(`Warning: %s.*destroys instance "web-1": machine %d is deleted through account "[^"]+" \(hetzner_robot at .*cancel_on_destroy is "true"`, warning, n)
	if out := c.MustRun("plan", "-destroy"); !acctest.Match(destroys).MatchString(out) {
		t.Fatalf("a destroy that cancels the rental does not say so (want %s):\n%s", destroys, out)
	}
	c.Config(robotInstanceAs(m, "", "", ""))
	c.MustRun("apply", "-auto-approve")
	c.MustRun("destroy", "-auto-approve")
}
