package hooks_test

import (
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/hooks"
)

// TestPlainTable: the plain table's rules are the collection's routes with
// HTTP's statuses in faults.DefaultCode's words, a rate limit says when to
// come back, and a partial listing cuts pages of one.
func TestPlainTable(t *testing.T) {
	m := faults.New(nil, faults.Config{})
	h := hooks.New(m, hooks.Table{Emulator: "plain", Routes: hooks.Resource("/servers", "/power"),
		Answers: hooks.PlainAnswers(), Revoked: hooks.PlainRevoked()})
	for _, c := range []struct {
		op, class string
		want      faults.Rule
	}{
		{"get", "server_error", faults.Rule{Method: "GET", Path: "/servers/{id}", Count: 1, Status: 500, Code: "server_error"}},
		{"list", "auth_refused", faults.Rule{Method: "GET", Path: "/servers", Count: 1, Status: 403, Code: "forbidden"}},
		{"create", "locked", faults.Rule{Method: "POST", Path: "/servers", Count: 1, Status: 423, Code: "locked"}},
		{"update", "server_error", faults.Rule{Method: "PATCH", Path: "/servers/{id}", Count: 1, Status: 500, Code: "server_error"}},
		{"delete", "server_error", faults.Rule{Method: "DELETE", Path: "/servers/{id}", Count: 1, Status: 500, Code: "server_error"}},
		{"power", "rate_limited", faults.Rule{Method: "POST", Path: "/servers/{id}/power", Count: 1, Status: 429, Code: "rate_limit_exceeded",
			Headers: map[string]string{"Retry-After": "30"}}},
		{"list", "partial_listing", faults.Rule{Method: "GET", Path: "/servers", Count: 1, Skip: 1, Status: 500, Code: "server_error"}},
	} {
		m.Clear()
		if err := h.FailNext(c.op, c.class, 1); err != nil {
			t.Fatalf("%s %s: %v", c.op, c.class, err)
		}
		if rules := m.Rules(); len(rules) != 1 || !sameRule(rules[0], c.want) {
			t.Errorf("%s %s: rules %+v, want %+v", c.op, c.class, rules, c.want)
		}
	}
	if m.MaxPageSize() != 1 {
		t.Errorf("partial listing: page size %d, want 1", m.MaxPageSize())
	}
	m.Clear()
	if err := h.Revoke(); err != nil {
		t.Fatal(err)
	}
	if rules := m.Rules(); len(rules) != 1 || !sameRule(rules[0], faults.Rule{Method: "*", Path: "*", Status: 401, Code: "unauthorized"}) ||
		rules[0].Message != hooks.PlainRevoked().Message {
		t.Errorf("revoke: rules %+v", rules)
	}
}

// sameRule compares what the table decides; the middleware words the
// message of an answer that has none.
func sameRule(a, b faults.Rule) bool {
	return a.Method == b.Method && a.Path == b.Path && a.Count == b.Count && a.Skip == b.Skip && a.Status == b.Status &&
		a.Code == b.Code && len(a.Headers) == len(b.Headers) && a.Headers["Retry-After"] == b.Headers["Retry-After"]
}
