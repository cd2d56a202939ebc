package instance_test

import (
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
// of the class (tfdiag.WayOut). Timeouts are short, so the classes that are
// retried give up within seconds.
func TestInstanceErrorPaths(t *testing.T) {
	t.Parallel()
	for _, row := range acctest.ErrorRows {
		t.Run(string(row.Code), func(t *testing.T) {
			t.Parallel()
			e := acctest.NewEmulator(t)
			cfg := func(labels string) string {
				return instance(e, "paths-1", `labels = { v = "`+labels+`" }`, `shutdown_timeout = "1s"`, `timeouts {
    create = "2s"
    read   = "2s"
    update = "2s"
    delete = "2s"
  }`)
			}
			cli := acctest.NewCLI(t, cfg("1"))
			for i, op := range errorOps {
				if i == 1 {
					// The machine the other operations fail on.
					cli.Config(cfg("1"))
					cli.MustRun("apply", "-auto-approve")
				}
				cli.Config(cfg(op.labels))
				for _, r := range op.routes {
					e.FailNext(r[0], r[1], 100000, row.Status, row.API)
				}
				out, err := cli.Run(append(op.args, "-input=false")...)
				e.Faults().Clear()
				if err == nil {
					t.Errorf("%s with %s succeeded:\n%s", op.verb, row.Code, out)
					continue
				}
				acctest.CheckErrorPath(t, out, "Unable to "+op.verb+" instance", row.Code, specificWayOut, `"paths-1"`, `[Mm]achine \d+`)
			}
			cli.MustRun("destroy", "-auto-approve")
		})
	}
}

// specificWayOut is the way out a path gives where the class's own
// (tfdiag.WayOut) would not do, by "VERB CLASS": a refused change of a
// machine is as often one without the provider's mark as refused
// credentials (DESIGN.md §3: names the machine and the way out).
var specificWayOut = map[string]string{
	"update AccessDenied": "To let Terraform forget the machine without touching it, run `terraform state rm` on this resource",
	"delete AccessDenied": "To let Terraform forget the machine without touching it, run `terraform state rm` on this resource",
}
