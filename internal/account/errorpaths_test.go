package account_test

import (
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestAccountErrorPaths: an account whose health check meets each class
// fails its create with one diagnostic form, "Unable to create provider
// account", a detail naming the account and the way out of the class. The
// create's timeout is the row's (acctest.ErrorRow.Budget): short only where
// the health check is retried until it.
func TestAccountErrorPaths(t *testing.T) {
	t.Parallel()
	// Where the account's own way out is more to the point than the
	// class's: it names the reference to check, or the endpoint.
	specific := map[string]string{
		"create AccessDenied": "Check that the reference points at a valid, unexpired secret",
		"create Transient":    "reachable from where Terraform runs, then run the command again",
		"create RateLimited":  "reachable from where Terraform runs, then run the command again",
	}
	for _, row := range acctest.ErrorRows {
		t.Run(string(row.Code), func(t *testing.T) {
			t.Parallel()
			e := acctest.NewEmulator(t)
			const summary = "Unable to create provider account"
			cfg := strings.Replace(e.Account(), "hetzner_cloud = {", "timeouts {\n    create = \""+row.Budget(summary)+"\"\n  }\n  hetzner_cloud = {", 1)
			cli := acctest.NewCLI(t, cfg)
			e.FailNext("GET", "/locations", 100000, row.Status, row.API)
			out, err := cli.Run("apply", "-auto-approve", "-input=false")
			acctest.CheckErrorPath(t, out, err, cli.Written(), summary, row, specific, `account "test"`)
		})
	}
}
