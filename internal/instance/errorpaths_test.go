package instance_test

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
)

// errorRow is one row of DESIGN.md §3's "How codes meet Terraform": the
// class, and the API error the emulator answers that the adapter classifies
// as it.
type errorRow struct {
	code   adapter.Code
	status int
	api    string
}

// errorRows are every class the Hetzner Cloud API can answer with. Not
// InvalidConfig, which comes of the account's settings (an endpoint, a
// reference) and is proven with them, nor NotFound, whose paths are not
// errors (refresh: gone_test.go; destroy: done).
var errorRows = []errorRow{
	{adapter.InvalidInput, 400, "invalid_input"},
	{adapter.AccessDenied, 403, "forbidden"},
	{adapter.Conflict, 409, "uniqueness_error"},
	{adapter.QuotaExceeded, 403, "resource_limit_exceeded"},
	{adapter.InvalidState, 423, "protected"},
	{adapter.Unsupported, 400, "unsupported_error"},
	{adapter.Transient, 503, "unavailable"},
	{adapter.RateLimited, 429, "rate_limit_exceeded"},
}

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
	for _, row := range errorRows {
		t.Run(string(row.code), func(t *testing.T) {
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
					e.FailNext(r[0], r[1], 100000, row.status, row.api)
				}
				out, err := cli.Run(append(op.args, "-input=false")...)
				e.Faults().Clear()
				if err == nil {
					t.Errorf("%s with %s succeeded:\n%s", op.verb, row.code, out)
					continue
				}
				checkErrorPath(t, out, "Unable to "+op.verb+" instance", row.code)
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

// classAtEnd is the class tfdiag.Message puts after the adapter's message.
var classAtEnd = regexp.MustCompile(`\(([A-Za-z]+)\)\s*$`)

func verbOf(summary string) string {
	return strings.Fields(summary)[2]
}

// errorHead is a diagnostic's first line and the text up to the next one.
var errorHead = regexp.MustCompile(`(?m)^Error: (.*)$`)

// checkErrorPath checks that every error in out has the summary form, that
// one is summary, and that its detail gives the way out of code.
func checkErrorPath(t *testing.T, out, summary string, code adapter.Code) {
	t.Helper()
	heads := errorHead.FindAllStringSubmatchIndex(out, -1)
	found := false
	for i, h := range heads {
		s := out[h[2]:h[3]]
		if msg := tfdiag.CheckSummary(s, true); msg != "" {
			t.Errorf("%s: summary %q %s", code, s, msg)
		}
		end := len(out)
		if i+1 < len(heads) {
			end = heads[i+1][0]
		}
		detail := out[h[1]:end]
		if s != summary {
			continue
		}
		found = true
		// The class the error ended as: an adapter may turn one into
		// another (a name taken and then freed is Transient).
		if m := classAtEnd.FindStringSubmatch(detail); m != nil && slices.Contains(adapter.Codes, adapter.Code(m[1])) {
			code = adapter.Code(m[1])
		}
		first := specificWayOut[verbOf(summary)+" "+string(code)]
		if first == "" {
			first, _, _ = strings.Cut(tfdiag.WayOut(&adapter.Error{Code: code}), ":")
			first, _, _ = strings.Cut(first, ". ")
		}
		if first == "" {
			t.Errorf("%s: %q: the class has no way out to look for", code, s)
		} else if !acctest.Match(regexp.QuoteMeta(first)).MatchString(detail) {
			t.Errorf("%s: %q does not give the way out %q:\n%s", code, s, first, detail)
		}
		if !strings.Contains(detail, "paths-1") && !acctest.Match(`[Mm]achine \d+`).MatchString(detail) {
			t.Errorf("%s: %q names neither the instance nor its machine:\n%s", code, s, detail)
		}
	}
	if !found {
		t.Errorf("%s: no %q among the errors:\n%s", code, summary, out)
	}
}
