package instance_test

import (
	"fmt"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// errorOps are the table's columns: what Terraform runs, the requests the
// fault is put on, and the summary the failure must have.
var errorOps = []struct {
	verb   string
	routes [][2]string
	args   []string
	labels string // the configuration's labels for the run
}{
	{"create", [][2]string{{"POST", "/servers"}}, []string{"apply", "-auto-approve"}, "1"},
	{"read", [][2]string{{"GET", "/servers"}, {"GET", "/servers/{id}"}}, []string{"plan"}, "1"},
	{"update", [][2]string{{"PUT", "/servers/{id}"}}, []string{"apply", "-auto-approve"}, "2"},
	{"delete", [][2]string{{"DELETE", "/servers/{id}"}}, []string{"destroy", "-auto-approve"}, "2"},
}

// TestInstanceErrorPaths: every class × every operation of an instance
// fails with one diagnostic form: "Unable to <verb> instance", then a detail
// that names the machine or its name, the backend's reason and the way out
// of the class (tfdiag.WayOut), checked against what the provider sent.
// Only a path that is retried until its timeout gets a short one
// (acctest.RetryBudget); every other timeout is one no run can reach.
func TestInstanceErrorPaths(t *testing.T) {
	t.Parallel()
	for _, row := range acctest.ErrorRows {
		t.Run(string(row.Code), func(t *testing.T) {
			t.Parallel()
			e := acctest.NewEmulator(t)
			// Each operation's timeout is the row's for its path
			// (ErrorRow.Budget): one no run can reach where the path fails
			// at the backend's first answer, a short one where it is
			// retried until it. Create and update take theirs from the
			// configuration, so only the run that fails them has the
			// row's; read and delete take theirs from the state, so the
			// apply that makes the machine already holds the row's (a
			// refresh before a failing update or delete then reads within
			// it, which an answer in milliseconds does on any machine).
			budget := func(verb, failing string) string {
				if verb != failing && (verb == "create" || verb == "update") {
					return acctest.SetupBudget
				}
				return row.Budget("Unable to " + verb + " instance")
			}
			cfg := func(labels, failing string) string {
				return instance(e, "paths-1", `labels = { v = "`+labels+`" }`, `shutdown_timeout = "1s"`, fmt.Sprintf(`timeouts {
    create = %q
    read   = %q
    update = %q
    delete = %q
  }`, budget("create", failing), budget("read", failing), budget("update", failing), budget("delete", failing)))
			}
			cli := acctest.NewCLI(t, cfg("1", ""))
			for i, op := range errorOps {
				summary := "Unable to " + op.verb + " instance"
				if i == 1 {
					// The machine the other operations fail on.
					cli.Config(cfg("1", ""))
					cli.MustRun("apply", "-auto-approve")
				}
				cli.Config(cfg(op.labels, op.verb))
				for _, r := range op.routes {
					e.FailNext(r[0], r[1], 100000, row.Status, row.API)
				}
				out, err := cli.Run(append(op.args, "-input=false")...)
				e.Faults().Clear()
				acctest.CheckErrorPath(t, out, err, cli.Written(), summary, row, specificWayOut, `"paths-1"`, `[Mm]achine \d+`)
			}
			cli.MustRun("destroy", "-auto-approve")
		})
	}
}

// specificWayOut is the way out a path gives where the class's own
// (tfdiag.WayOut) would not do, by "VERB CLASS": a refused change of a
// machine is as often one without the provider's mark as refused
// credentials ("How codes meet Terraform" in internal/adapter's package
// documentation: it names the machine and the way out).
var specificWayOut = map[string]string{
	"update AccessDenied": "To let Terraform forget the machine without touching it, run `terraform state rm` on this resource",
	"delete AccessDenied": "To let Terraform forget the machine without touching it, run `terraform state rm` on this resource",
}
