package acctest

import (
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
)

// ErrorRow is one row of DESIGN.md §3's "How codes meet Terraform": the
// class, and the API error the Hetzner Cloud emulator answers that the
// adapter classifies as it, with the HTTP status the API's reference (the
// Hetzner Cloud OpenAPI document's table of error codes) gives that code.
type ErrorRow struct {
	Code   adapter.Code
	Status int
	API    string
}

// ErrorRows are every class the Hetzner Cloud API can answer with. Not
// InvalidConfig, which comes of the account's settings (an endpoint, a
// reference) and is proven with them, nor NotFound, whose paths are not
// errors (a refresh forgets the machine, a destroy is done).
var ErrorRows = []ErrorRow{
	{adapter.InvalidInput, 422, "invalid_input"},
	{adapter.AccessDenied, 403, "forbidden"},
	{adapter.Conflict, 409, "uniqueness_error"},
	{adapter.QuotaExceeded, 403, "resource_limit_exceeded"},
	{adapter.InvalidState, 423, "protected"},
	{adapter.Unsupported, 422, "unsupported_error"},
	{adapter.Transient, 503, "unavailable"},
	{adapter.RateLimited, 429, "rate_limit_exceeded"},
}

// errorHead is a diagnostic's first line.
var errorHead = regexp.MustCompile(`(?m)^Error: (.*)$`)

// classAtEnd is the class tfdiag.Message puts after the adapter's message.
var classAtEnd = regexp.MustCompile(`\(([A-Za-z]+)\)\s*$`)

// CheckErrorPath checks terraform's output of a failed run: every error's
// summary has the form (tfdiag.CheckSummary), one is summary, and its
// detail names one of names and gives the way out of the class it ended as
// (an adapter may turn one class into another): specific["VERB CLASS"]
// where the path has its own, else the first sentence of tfdiag.WayOut.
func CheckErrorPath(t *testing.T, out, summary string, code adapter.Code, specific map[string]string, names ...string) {
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
		class := code
		if m := classAtEnd.FindStringSubmatch(detail); m != nil && slices.Contains(adapter.Codes, adapter.Code(m[1])) {
			class = adapter.Code(m[1])
		}
		first := specific[strings.Fields(summary)[2]+" "+string(class)]
		if first == "" {
			first, _, _ = strings.Cut(tfdiag.WayOut(&adapter.Error{Code: class}), ":")
			first, _, _ = strings.Cut(first, ". ")
		}
		if first == "" {
			t.Errorf("%s: %q: the class %s has no way out to look for", code, s, class)
		} else if !Match(regexp.QuoteMeta(first)).MatchString(detail) {
			t.Errorf("%s: %q does not give the way out %q:\n%s", code, s, first, detail)
		}
		if !slices.ContainsFunc(names, func(n string) bool { return Match(n).MatchString(detail) }) {
			t.Errorf("%s: %q names none of %q:\n%s", code, s, names, detail)
		}
	}
	if !found {
		t.Errorf("%s: no %q among the errors:\n%s", code, summary, out)
	}
}
