package poweraction_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// web is an instance named name on e's account, and the action kind named
// "web" on it.
func web(e *acctest.Emulator, name, kind string, extra ...string) string {
	return e.Account() + fmt.Sprintf(`
resource "compute_instance" "web" {
  account  = compute_provider_account.test.id
  name     = %q
  offer_id = "cx22"
  image    = "ubuntu-24.04"
  %s
}

action "compute_instance_%s" "web" {
  config {
    instance = compute_instance.web
  }
}
`, name, strings.Join(extra, "\n  "), kind)
}

func flat(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestInvokeRebootCLI: `terraform apply -invoke` reboots the instance once,
// and the next plan is empty.
func TestInvokeRebootCLI(t *testing.T) {
	t.Parallel()
	acctest.SkipWithoutActions(t)
	e := acctest.NewEmulator(t)
	cli := acctest.NewCLI(t, web(e, "act-1", "reboot"))
	cli.MustRun("apply", "-auto-approve")
	e.ResetStats()
	out := cli.MustRun("apply", "-auto-approve", "-invoke=action.compute_instance_reboot.web")
	t.Log(out)
	s, _ := e.ServerNamed("act-1")
	if s.Restarts != 1 || e.Stats()["POST /servers/{id}/actions/reboot"] != 1 {
		t.Errorf("after the invoke: %d restarts, %d reboot requests; want one each", s.Restarts, e.Stats()["POST /servers/{id}/actions/reboot"])
	}
	plan := cli.MustRun("plan", "-detailed-exitcode")
	if !strings.Contains(plan, "No changes.") {
		t.Errorf("the plan after the reboot is not empty:\n%s", plan)
	}
}
