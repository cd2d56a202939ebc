package bootstrap_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestHostImportOfNoMachine: an import block naming a server the Robot
// account does not rent fails naming the server, the account and the way
// out, rather than Terraform's "non-existent remote object".
func TestHostImportOfNoMachine(t *testing.T) {
	t.Parallel()
	m := acctest.NewMetal(t)
	const missing = 2999999
	c := acctest.NewCLI(t, robotHostAs(m, missing, "", "", "")+fmt.Sprintf(`
import {
  to = compute_bootstrap_host.db
  id = "${compute_provider_account.robot.id}/%d"
}
`, missing))
	out, err := c.Run("plan")
	if err == nil {
		t.Fatalf("the plan imported a server that does not exist:\n%s", out)
	}
	block := strings.Join(strings.Fields(acctest.Diagnostic(out, "Error: Unable to import bootstrap host")), " ")
	for _, want := range []string{fmt.Sprintf("Machine %d does not exist on account", missing), "Nothing was imported", "compute_provider_account.NAME.id"} {
		if !strings.Contains(block, want) {
			t.Errorf("the import's error lacks %q:\n%s", want, out)
		}
	}
}

// TestHostImportOnAnAccountThatCannotBootstrap: a machine of an account
// whose adapter cannot bootstrap (Hetzner Cloud) is refused at import as no
// bootstrap host, with the way out: import it as a compute_instance.
func TestHostImportOnAnAccountThatCannotBootstrap(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	c := acctest.NewCLI(t, e.Account()+`
import {
  to = compute_bootstrap_host.db
  id = "${compute_provider_account.test.id}/4200001"
}

resource "compute_bootstrap_host" "db" {
  account    = compute_provider_account.test.id
  hostname   = "db-1"
  machine_id = "4200001"
  image      = "ubuntu-24.04"
}
`)
	out, err := c.Run("plan")
	if err == nil {
		t.Fatalf("the plan imported a Hetzner Cloud server as a bootstrap host:\n%s", out)
	}
	block := strings.Join(strings.Fields(acctest.Diagnostic(out, "Error: Unable to import bootstrap host")), " ")
	for _, want := range []string{"cannot bootstrap hosts", "machine 4200001 is no bootstrap host", "compute_instance", "hetzner_robot"} {
		if !strings.Contains(block, want) {
			t.Errorf("the refusal lacks %q:\n%s", want, out)
		}
	}
}
