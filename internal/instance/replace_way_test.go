package instance_test

import (
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestInstanceAccountWayOutTaint follows the way out the refusal of an
// account that does not reach the machine gives: taint, then apply, makes
// the machine anew on the new account and deletes the old one.
func TestInstanceAccountWayOutTaint(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	other := acctest.NewEmulator(t)
	env := "env://" + acctest.HetznerCloudTokenEnv
	c := acctest.NewCLI(t, cloudOn(e.Endpoint, env, "fsn1"))
	c.MustRun("apply", "-auto-approve")
	c.Config(cloudOn(other.Endpoint, env, "fsn1"))
	if out, err := c.Run("plan"); err == nil {
		t.Fatalf("a plan onto an account that does not reach the machine passed:\n%s", out)
	}
	c.MustRun("taint", "compute_instance.web")
	c.MustRun("apply", "-auto-approve")
	if len(e.Live()) != 0 || len(other.Live()) != 1 {
		t.Fatalf("after taint and apply: %d servers on the old backend, %d on the new; want 0 and 1", len(e.Live()), len(other.Live()))
	}
	emptyPlan(t, c)
	c.MustRun("destroy", "-auto-approve")
}
