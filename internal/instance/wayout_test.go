package instance_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// TestInstanceImportedReplaceWayOut: an imported, not yet marked machine
// whose configuration differs in image must be replaced, and the delete that
// starts the replacement is refused. The error must name the way out that
// works (set the machine's own values), not only "apply once", which fails
// the same way again.
func TestInstanceImportedReplaceWayOut(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	id := e.AddServer(emu.Server{Name: "legacy"})
	cfg := e.Account() + fmt.Sprintf(`
import {
  to = compute_instance.web
  id = "${compute_provider_account.test.id}/%d"
}

resource "compute_instance" "web" {
  account  = compute_provider_account.test.id
  name     = "legacy"
  offer_id = "cx22"
  image    = "debian-12"
}
`, id)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{
				Config:      cfg,
				ExpectError: acctest.Match(`Unable to delete instance.*offer_id, image and location set to the machine's own values`),
			},
			{
				// Forget it without touching it, so the test's own destroy
				// does not meet the same refusal.
				Config: e.Account() + `
removed {
  from = compute_instance.web
  lifecycle {
    destroy = false
  }
}
`,
			},
		},
	})
	if _, ok := e.Server(id); !ok {
		t.Fatal("the imported, unmarked server was deleted")
	}
}

// TestInstanceUpdateOfVanishedMachine: a machine deleted outside Terraform,
// then updated without a refresh, fails with the way out.
func TestInstanceUpdateOfVanishedMachine(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	base := e.Account() + `
resource "compute_instance" "web" {
  account  = compute_provider_account.test.id
  name     = "gone-1"
  offer_id = "cx22"
  image    = "ubuntu-24.04"
  labels   = { v = "%s" }
}
`
	cli := acctest.NewCLI(t, fmt.Sprintf(base, "1"))
	cli.MustRun("apply", "-auto-approve")
	s, ok := e.ServerNamed("gone-1")
	if !ok {
		t.Fatal("the apply made no server")
	}
	e.RemoveServer(s.ID)
	cli.Write("main.tf", "terraform {\n  required_providers {\n    compute = { source = \"seedcompute/compute\" }\n  }\n}\n"+fmt.Sprintf(base, "2"))
	out, err := cli.Run("apply", "-auto-approve", "-refresh=false")
	if err == nil {
		t.Fatalf("the update of a deleted machine succeeded:\n%s", out)
	}
	flat := strings.Join(strings.Fields(out), " ")
	if !strings.Contains(flat, "no longer exists. Run terraform plan") {
		t.Errorf("the error does not say what to do:\n%s", out)
	}
}
