package offers_test

import (
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestOffersErrorPaths: a catalog that answers each class fails the read
// with one diagnostic form, "Unable to list offers", a detail naming the
// account and the way out of the class. Only the failing read's timeout is
// the row's (acctest.ErrorRow.Budget), short where it is retried until it.
func TestOffersErrorPaths(t *testing.T) {
	t.Parallel()
	// A listing's own way out for a failing backend names the endpoint to
	// check and the read timeout to raise.
	specific := map[string]string{"list Transient": "then run the command again, or raise timeouts.read to retry for longer"}
	for _, row := range acctest.ErrorRows {
		t.Run(string(row.Code), func(t *testing.T) {
			t.Parallel()
			e := acctest.NewEmulator(t)
			const summary = "Unable to list offers"
			cfg := func(read string) string {
				return e.Account() + `
data "compute_offers" "all" {
  accounts = [compute_provider_account.test.id]
  timeouts {
    read = "` + read + `"
  }
}
`
			}
			cli := acctest.NewCLI(t, cfg(acctest.SetupBudget))
			cli.MustRun("apply", "-auto-approve", "-input=false")
			cli.Config(cfg(row.Budget(summary)))
			e.FailNext("GET", "/server_types", 100000, row.Status, row.API)
			out, err := cli.Run("plan", "-input=false")
			acctest.CheckErrorPath(t, out, err, cli.Written(), summary, row, specific, `account "test"`, `hetzner_cloud at`)
		})
	}
}
