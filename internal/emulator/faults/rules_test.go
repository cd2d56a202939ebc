package faults

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestRulePathForms(t *testing.T) {
	for _, tc := range []struct {
		path, req string
		match     bool
	}{
		{"/servers/{id}", "/v1/servers/9", true},
		{"/servers/{id}", "/v1/servers/9/actions/reset", false},
		{"/v1/servers/{id}", "/v1/servers/9", true},
		{"/servers/9", "/v1/servers/9", true},
		{"/servers/9", "/v1/servers/10", false},
		{"/servers/{id}/actions/*", "/v1/servers/9/actions/reset", true},
		{"/servers/{id}/actions/*", "/v1/servers/9", false},
		{"*", "/v1/anything", true},
		{"", "/v1/anything", true},
	} {
		m, _ := newMiddleware(t)
		if err := m.AddRule(Rule{Path: tc.path, Status: 500, Code: "server_error"}); err != nil {
			t.Fatal(err)
		}
		if got := do(t, m, "GET", tc.req, "").Code == 500; got != tc.match {
			t.Errorf("rule path %q on %s: matched %v, want %v", tc.path, tc.req, got, tc.match)
		}
	}
}

func TestUnlimitedRuleHoldsUntilClear(t *testing.T) {
	m, _ := newMiddleware(t)
	if err := m.AddRule(Rule{Method: "get", Path: "/servers", Status: 500, Code: "server_error", Message: "boom"}); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		if rec := do(t, m, "GET", "/v1/servers", ""); rec.Code != 500 || errorCode(t, rec) != "server_error" {
			t.Fatalf("status %d body %s", rec.Code, rec.Body)
		}
	}
	m.Clear()
	if rec := do(t, m, "GET", "/v1/servers", ""); rec.Code != 200 {
		t.Fatalf("after Clear: status %d", rec.Code)
	}
}

func TestInvalidRulesAreRefused(t *testing.T) {
	m, _ := newMiddleware(t)
	for _, r := range []Rule{
		{Path: "/x"},
		{Path: "/x", Status: 200},
		{Path: "/x", Status: 500, Drop: true},
		{Path: "/x", Status: 500, Count: -1},
	} {
		if err := m.AddRule(r); err == nil {
			t.Errorf("AddRule(%+v) accepted", r)
		}
	}
}

func TestDelayRules(t *testing.T) {
	m, _ := newMiddleware(t)
	sec := Duration(time.Second)
	for _, r := range []Rule{
		{Path: "/x", DelayIfConnected: sec, DelayThenCommit: sec},
		{Path: "/x", DelayThenCommit: sec, CommitThenDelay: sec},
		{Path: "/x", DelayIfConnected: -sec},
		{Path: "/x", Status: 500, CommitThenDelay: sec},
		{Path: "/x", Drop: true, CommitThenDelay: sec},
		{Path: "/x", Status: 500, DelayThenCommit: sec},
	} {
		if err := m.AddRule(r); err == nil {
			t.Errorf("AddRule(%+v) accepted", r)
		}
	}
	for _, r := range []Rule{
		{Path: "/x", Status: 503, DelayIfConnected: sec},
		{Path: "/x", Drop: true, DelayThenCommit: sec},
	} {
		if err := m.AddRule(r); err != nil {
			t.Errorf("AddRule(%+v): %v", r, err)
		}
	}
	m.Clear()
	body := `[{"path":"/a","delay_if_connected":"1s"},{"path":"/b","delay_then_commit":"2s"},{"path":"/c","commit_then_delay":"3s"}]`
	if rec := do(t, m, "POST", "/_emulator/faults", body); rec.Code != 200 {
		t.Fatalf("POST faults: %d %s", rec.Code, rec.Body)
	}
	if st := m.State().Rules; len(st) != 3 || st[0].DelayIfConnected != sec || st[1].DelayThenCommit != 2*sec || st[2].CommitThenDelay != 3*sec {
		t.Errorf("rules = %+v", st)
	}
	rec := do(t, m, "POST", "/_emulator/faults", `[{"path":"/x","latency":"1s"}]`)
	if rec.Code != 400 || !strings.Contains(rec.Body.String(), "delay_if_connected, delay_then_commit or commit_then_delay") {
		t.Errorf("a rule with the old latency field: %d %s, want the new names", rec.Code, rec.Body)
	}
}

// TestSkipLetsTheFirstCallsThrough: a rule with Skip fails only the calls
// after the skipped ones, e.g. the second page of a listing.
func TestSkipLetsTheFirstCallsThrough(t *testing.T) {
	m, a := newMiddleware(t)
	if err := m.AddRule(Rule{Method: "GET", Path: "/servers", Skip: 1, Count: 1, Status: 500}); err != nil {
		t.Fatal(err)
	}
	if st := m.State().Rules; len(st) != 1 || st[0].Skip != 1 {
		t.Errorf("state before any call: %+v, want the skip left", st)
	}
	var got []int
	for range 3 {
		got = append(got, do(t, m, "GET", "/v1/servers?page=1", "").Code)
	}
	if want := []int{200, 500, 200}; !slices.Equal(got, want) {
		t.Errorf("statuses %v, want %v", got, want)
	}
	if n := a.calls.Load(); n != 2 {
		t.Errorf("%d calls reached the API, want the skipped and the one after", n)
	}
	if err := m.AddRule(Rule{Path: "/x", Status: 500, Skip: -1}); err == nil {
		t.Errorf("a negative skip was accepted")
	}
}

// TestScriptedErrorCarriesHeaders: a scripted status comes with the rule's
// headers, as a rate limit comes with its RateLimit-* headers.
func TestScriptedErrorCarriesHeaders(t *testing.T) {
	m, _ := newMiddleware(t)
	if err := m.AddRule(Rule{Path: "/servers", Status: 429, Headers: map[string]string{"RateLimit-Reset": "1700000000"}}); err != nil {
		t.Fatal(err)
	}
	rec := do(t, m, "GET", "/v1/servers", "")
	if rec.Code != 429 || rec.Header().Get("RateLimit-Reset") != "1700000000" || errorCode(t, rec) != "rate_limit_exceeded" {
		t.Errorf("status %d headers %v body %s", rec.Code, rec.Header(), rec.Body)
	}
	if err := m.AddRule(Rule{Path: "/x", Drop: true, Headers: map[string]string{"A": "b"}}); err == nil {
		t.Errorf("headers without a status were accepted")
	}
}
