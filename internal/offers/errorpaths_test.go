package offers_test

import (
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestOffersErrorPaths: a catalog that answers each class fails the read
// with one diagnostic form, "Unable to list offers", a detail naming the
// account and the way out of the class.
func TestOffersErrorPaths(t *testing.T) {
	t.Parallel()
	// A listing's own way out for a failing backend names the endpoint to
	// check and the read timeout to raise.
	specific := map[string]string{"list Transient": "then run the command again, or raise timeouts.read to retry for longer"}
	for _, row := range acctest.ErrorRows {
		t.Run(string(row.Code), func(t *testing.T) {
			t.Parallel()
			e := acctest.NewEmulator(t)
			cli := acctest.NewCLI(t, e.Account()+`
data "compute_offers" "all" {
  accounts = [compute_provider_account.test.id]
  timeouts {
    read = "2s"
  }
}
`)
			cli.MustRun("apply", "-auto-approve", "-input=false")
			e.FailNext("GET", "/server_types", 100000, row.Status, row.API)
			out, err := cli.Run("plan", "-input=false")
			if err == nil {
				t.Fatalf("the read succeeded with %s:\n%s", row.Code, out)
			}
			acctest.CheckErrorPath(t, out, "Unable to list offers", row.Code, specific, `account "test"`, `hetzner_cloud at`)
		})
	}
}
