// Package resttest holds what the tests of a backend on internal/adapter/rest
// share: the classify table test of an API that answers coded errors, which
// holds the backend's rest.Codes to placements its test states apart, and
// the table's not-found codes, its fuzz target's proof of absence. Only
// _test.go files import it. It imports the standard library,
// internal/adapter and internal/adapter/rest.
package resttest

import (
	"context"
	"errors"
	"maps"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/rest"
)

// retryAfter is the Retry-After of the rate-limit case that carries one.
const retryAfter = 7 * time.Second

// classifyCase is one answer and where the contract wants it placed.
type classifyCase struct {
	name       string
	err        error
	code       adapter.Code
	field      string
	retryAfter time.Duration
}

// Placement is where a backend's test expects one of its API's codes
// placed: the contract's code and the field (or setting) it blames, as
// classify answers them. An AccessDenied code blames the credential
// setting, whatever the table says.
type Placement struct {
	Code  adapter.Code
	Field string
}

// Classify is the table test of classify, the one classify of the adapter
// def defines, over the API that table describes. want is every code's
// placement, written in the backend's test apart from table, so that a
// wrong entry in the table fails: want and table must name the same codes,
// and the cases are built from want. The settings the table blames are
// def's: Credential a RoleSecret setting, Endpoint the RoleEndpoint one.
// The cases are every code of want in a 4xx answer (an AccessDenied one as
// both 401 and 403), a rate limit with and without Retry-After, a 5xx with
// a known code and without one, an unknown code, a 404 without a code (a
// wrong endpoint), a cancel, an unknown failure and nil; the frame's
// expectations are the contract's, stated here apart from
// rest.Codes.Classify. want must place some code into each of NotFound,
// AccessDenied, InvalidInput and RateLimited, the answers every API of this
// shape gives.
func Classify(t *testing.T, def adapter.Definition, classify func(error) error, table rest.Codes, want map[string]Placement) {
	t.Helper()
	roles := map[string]adapter.SettingRole{}
	for _, s := range def.Settings {
		roles[s.Name] = s.Role
	}
	if roles[table.Credential] != adapter.RoleSecret || roles[table.Endpoint] != adapter.RoleEndpoint || table.Example == "" {
		t.Errorf("the table blames credential %q and endpoint %q, suggesting %q: want %s's secret and endpoint settings and an example", table.Credential,
			table.Endpoint, table.Example, def.Kind)
	}
	for code, p := range want {
		if got, ok := table.Codes[code]; !ok {
			t.Errorf("the table does not place %q, which the test places into %s", code, p.Code)
		} else if got != p.Code {
			t.Errorf("the table places %q into %s, want %s", code, got, p.Code)
		}
	}
	for code := range table.Codes {
		if _, ok := want[code]; !ok {
			t.Errorf("the table places %q, which the test's placements do not state", code)
		}
	}
	covered := map[adapter.Code]bool{}
	for _, c := range cases(table, want) {
		covered[c.code] = true
		t.Run(c.name, func(t *testing.T) {
			var e *adapter.Error
			if got := classify(c.err); !errors.As(got, &e) {
				t.Fatalf("classify returned %T %v, want *adapter.Error", got, got)
			}
			if e.Code != c.code || e.Field != c.field || e.RetryAfter != c.retryAfter {
				t.Errorf("classified as %s on %q after %s (%q), want %s on %q after %s", e.Code, e.Field, e.RetryAfter, e.Message, c.code, c.field, c.retryAfter)
			}
			if c.code == adapter.InvalidConfig && !strings.Contains(e.Message, table.Example) {
				t.Errorf("a wrong endpoint's message %q does not suggest %s", e.Message, table.Example)
			}
		})
	}
	if classify(nil) != nil {
		t.Error("classify(nil) must be nil")
	}
	for _, c := range []adapter.Code{adapter.NotFound, adapter.AccessDenied, adapter.InvalidInput, adapter.RateLimited} {
		if !covered[c] {
			t.Errorf("the table places no code into %s", c)
		}
	}
}

func cases(table rest.Codes, placements map[string]Placement) []classifyCase {
	var out []classifyCase
	known := ""
	for _, code := range slices.Sorted(maps.Keys(placements)) {
		p := placements[code]
		want := classifyCase{name: code, code: p.Code, field: p.Field}
		status := http.StatusUnprocessableEntity
		switch want.code {
		case adapter.NotFound:
			status = http.StatusNotFound
		case adapter.AccessDenied:
			// A missing or wrong credential is 401, one without the right
			// is 403: the code places both.
			status = http.StatusForbidden
			out = append(out, classifyCase{name: code + " as 401", code: p.Code, field: p.Field,
				err: &rest.CodedError{Status: http.StatusUnauthorized, Code: code, Message: "who are you"}})
		case adapter.RateLimited:
			status, want.retryAfter = http.StatusTooManyRequests, retryAfter
			out = append(out, classifyCase{name: code + " without Retry-After", code: adapter.RateLimited, field: p.Field, retryAfter: time.Second,
				err: &rest.CodedError{Status: status, Code: code, Message: "slow down"}})
		}
		want.err = &rest.CodedError{Status: status, Code: code, Message: "answer " + code, RetryAfter: want.retryAfter}
		out = append(out, want)
		if known == "" || want.code == adapter.NotFound {
			// A failing API's not_found is the answer most dangerous to
			// misread: it would be taken for the machine's absence.
			known = code
		}
	}
	return append(out,
		classifyCase{name: "5xx with a known code", err: &rest.CodedError{Status: 503, Code: known, Message: "backend down"}, code: adapter.Transient},
		classifyCase{name: "5xx without a code", err: &rest.CodedError{Status: 502}, code: adapter.Transient},
		classifyCase{name: "unknown code", err: &rest.CodedError{Status: 422, Code: "brand_new_code", Message: "new"}, code: adapter.Transient},
		classifyCase{name: "404 without a code", err: &rest.CodedError{Status: 404}, code: adapter.InvalidConfig, field: table.Endpoint},
		classifyCase{name: "cancelled", err: context.Canceled, code: adapter.Transient},
		classifyCase{name: "unknown failure", err: errors.New("something odd"), code: adapter.Transient})
}
