package instance_test

import (
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestAccountEditKeepsMachinesWithOffersFromTheCatalog: with offer_id taken
// from compute_offers, as the quick start does, renaming the account makes
// Terraform defer the catalog read to apply, so offer_id is unknown at plan.
// That is no reason to replace the machine: it stays, the same one.
func TestAccountEditKeepsMachinesWithOffersFromTheCatalog(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	config := e.Account() + `
data "compute_offers" "small" {
  accounts = [compute_provider_account.test.id]
  min_vcpu = 2
}

resource "compute_instance" "web" {
  account  = compute_provider_account.test.id
  name     = "catalog-1"
  offer_id = [for o in data.compute_offers.small.offers : o if o.available][0].id
  image    = "ubuntu-24.04"
}
`
	c := acctest.NewCLI(t, config)
	c.MustRun("apply", "-auto-approve")
	machine := onlyServer(t, e)
	c.Write("main.tf", strings.Replace(c.Read("main.tf"), `name = "test"`, `name = "test-renamed"`, 1))
	out := c.MustRun("plan")
	if strings.Contains(out, "must be replaced") || strings.Contains(out, "forces replacement") {
		t.Fatalf("renaming the account plans to replace the machine:\n%s", out)
	}
	c.MustRun("apply", "-auto-approve")
	if now := onlyServer(t, e); now.ID != machine.ID {
		t.Fatalf("renaming the account replaced machine %d by %d", machine.ID, now.ID)
	}
	emptyPlan(t, c)
	c.MustRun("destroy", "-auto-approve")
}
