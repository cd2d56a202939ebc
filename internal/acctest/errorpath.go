package acctest

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
)

// ErrorRow is one row of "How codes meet Terraform" in internal/adapter's
// package documentation: the class, and the API error the Hetzner Cloud
// emulator answers that the adapter classifies as it, with the HTTP status the
// API's reference (the Hetzner Cloud OpenAPI document's table of error codes)
// gives that code.
type ErrorRow struct {
	Code   adapter.Code
	Status int
	API    string
	// EndsAs is the class a path's diagnostic ends as, by its summary,
	// where the path turns Code into another; every other path must end
	// as Code itself.
	EndsAs map[string]adapter.Code
}

// ErrorRows are every class the Hetzner Cloud API can answer with. Not
// InvalidConfig, which comes of the account's settings (an endpoint, a
// reference) and is proven with them, nor NotFound, whose paths are not
// errors (a refresh forgets the machine, a destroy is done).
var ErrorRows = []ErrorRow{
	{Code: adapter.InvalidInput, Status: 422, API: "invalid_input"},
	{Code: adapter.AccessDenied, Status: 403, API: "forbidden"},
	// A create's name taken, then free again when the adapter looks, is
	// a race that a retry wins (the hcloud adapter's classify), so it is
	// retried as Transient until the timeout.
	{Code: adapter.Conflict, Status: 409, API: "uniqueness_error", EndsAs: map[string]adapter.Code{"Unable to create instance": adapter.Transient}},
	{Code: adapter.QuotaExceeded, Status: 403, API: "resource_limit_exceeded"},
	{Code: adapter.InvalidState, Status: 423, API: "protected"},
	{Code: adapter.Unsupported, Status: 422, API: "unsupported_error"},
	{Code: adapter.Transient, Status: 503, API: "unavailable"},
	{Code: adapter.RateLimited, Status: 429, API: "rate_limit_exceeded"},
}

// The timeouts an error-path test gives its operations, so that no outcome
// depends on how fast the machine runs the test (they are real time: the
// provider's timeouts are context deadlines, not the injected clock's).
//
// SetupBudget is for every run that must succeed and for a failing path
// that fails at the backend's first answer: nothing there waits for the
// budget, so it cannot be the reason for the outcome on any machine.
//
// RetryBudget is for a path that retries until its timeout (ErrorRow.Budget):
// the budget is that path's designed end. What must not hang on the
// machine's speed is the class it ends as, which is the last answer the
// backend gave (adapter.Retry); only a first attempt left unanswered for the
// whole budget would end it otherwise, and a loopback emulator answers an
// injected fault in milliseconds, a thousandth of this budget, even on a
// loaded machine. Longer would make each of these paths wait it out.
const (
	SetupBudget = "10m"
	RetryBudget = "5s"
)

// Budget is the timeout for the path summary of this row: RetryBudget
// where the path ends as a class the provider retries, else SetupBudget.
func (r ErrorRow) Budget(summary string) string {
	if c := r.endsAs(summary); c == adapter.Transient || c == adapter.RateLimited {
		return RetryBudget
	}
	return SetupBudget
}

// endsAs is the class the path summary must end as: EndsAs's, else Code.
func (r ErrorRow) endsAs(summary string) adapter.Code {
	if c := r.EndsAs[summary]; c != "" {
		return c
	}
	return r.Code
}

// classAtEnd is the class tfdiag.Message puts after the adapter's message,
// which ends the detail.
var classAtEnd = regexp.MustCompile(`\(([A-Za-z]+)\)\s*$`)

// CheckErrorPath checks a failed command of an error-path test against
// what the provider sent (written, from CLI.Written), never against
// terraform's output, which also echoes the user's configuration (a name
// the configuration gives would be found there whatever the provider
// wrote): the output only confirms that the command failed and showed
// summary. Every error the provider sent has the form
// (tfdiag.CheckSummary); one is summary, and its detail ends as the class
// the row expects for summary (ErrorRow.EndsAs), names one of names
// (patterns) and gives that class's way out: specific["VERB CLASS"] where
// the path has its own, else the first sentence of tfdiag.WayOut.
func CheckErrorPath(t *testing.T, out string, runErr error, written *Written, summary string, row ErrorRow, specific map[string]string, names ...string) {
	t.Helper()
	if runErr == nil {
		t.Errorf("%s: the command succeeded; want %q:\n%s", row.Code, summary, out)
		return
	}
	if !Match(`Error: ` + regexp.QuoteMeta(summary)).MatchString(out) {
		t.Errorf("%s: terraform failed (%v) without showing %q:\n%s", row.Code, runErr, summary, out)
	}
	want := row.endsAs(summary)
	found := false
	for _, d := range written.Diagnostics() {
		if d.Severity != tfprotov6.DiagnosticSeverityError {
			continue
		}
		if msg := tfdiag.CheckSummary(d.Summary, true); msg != "" {
			t.Errorf("%s: summary %q %s", row.Code, d.Summary, msg)
		}
		if d.Summary != summary {
			continue
		}
		found = true
		class := adapter.Code("")
		if m := classAtEnd.FindStringSubmatch(d.Detail); m != nil && slices.Contains(adapter.Codes, adapter.Code(m[1])) {
			class = adapter.Code(m[1])
		}
		if class != want {
			t.Errorf("%s: %q ends as class %q, want %s (ErrorRow.EndsAs lists a path's allowed conversion):\n%s", row.Code, summary, class, want, d.Detail)
			continue
		}
		first := specific[strings.Fields(summary)[2]+" "+string(class)]
		if first == "" {
			first, _, _ = strings.Cut(tfdiag.WayOut(&adapter.Error{Code: class}), ":")
			first, _, _ = strings.Cut(first, ". ")
		}
		// A rate limit that resets after the operation's timeout fails at
		// once, with a way out of its own; which of the two a run meets
		// depends on the backend's reset and the budget.
		alt := ""
		if class == adapter.RateLimited {
			alt, _, _ = strings.Cut(tfdiag.WayOut(&adapter.Error{Code: class, Err: adapter.ErrLimitPastTimeout}), ", so")
		}
		if first == "" {
			t.Errorf("%s: %q: the class %s has no way out to look for", row.Code, summary, class)
		} else if !strings.Contains(d.Detail, first) && (alt == "" || !strings.Contains(d.Detail, alt)) {
			t.Errorf("%s: %q does not give the way out %q:\n%s", row.Code, summary, first, d.Detail)
		}
		if !slices.ContainsFunc(names, func(n string) bool { return Match(n).MatchString(d.Detail) }) {
			t.Errorf("%s: %q names none of %q:\n%s", row.Code, summary, names, d.Detail)
		}
	}
	if !found {
		t.Errorf("%s: the provider sent no %q; it sent %q", row.Code, summary, Diagnostics(written.Diagnostics(), tfprotov6.DiagnosticSeverityError))
	}
}
