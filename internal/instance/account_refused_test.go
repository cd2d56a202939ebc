package instance_test

import (
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestInstancePlanLeavesRefusedSecretToAccount: a token the adapter
// refuses for its shape (here one with a line break) is the account's
// fault, which the account's plan reports as a warning; each instance on it
// warns the same way, naming the setting, instead of failing its own plan,
// and the apply then fails at the account before any machine is asked for.
func TestInstancePlanLeavesRefusedSecretToAccount(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	cli := acctest.NewCLI(t, `
provider "compute" {
  secrets = { bad = "first-line\nsecond-line" }
}
`+e.AccountNamed("test", "provider://bad")+`
resource "compute_instance" "web" {
  account  = compute_provider_account.test.id
  name     = "web-1"
  offer_id = "cx22"
  image    = "ubuntu-24.04"
}
`)
	out, err := cli.Run("plan")
	if err != nil {
		t.Fatalf("the plan failed (%v), want warnings only:\n%s", err, out)
	}
	for _, summary := range []string{"Warning: Account not checked", "Warning: Instance not checked against the catalog"} {
		if block := acctest.Diagnostic(out, summary); !strings.Contains(block, "hetzner_cloud.token") {
			t.Errorf("plan output lacks %q naming hetzner_cloud.token:\n%s", summary, out)
		}
	}
	out, err = cli.Run("apply", "-auto-approve")
	if err == nil || strings.Count(out, "Error: ") != 1 || !strings.Contains(acctest.Diagnostic(out, "Error: Unable to create provider account"), "hetzner_cloud.token") {
		t.Errorf("the apply should fail at the account alone (%v):\n%s", err, out)
	}
	if n := len(e.Servers()); n != 0 {
		t.Errorf("the emulator holds %d servers, want none", n)
	}
	for _, secret := range []string{"first-line", "second-line"} {
		if strings.Contains(out, secret) {
			t.Errorf("the output shows the token's %s", secret)
		}
	}
}
