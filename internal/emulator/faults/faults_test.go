package faults

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// api is a stand-in emulator: it counts the calls that reach it and
// answers 200 {"ok":true}.
type api struct{ calls atomic.Int64 }

func (a *api) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.calls.Add(1)
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{"ok":true}`)
}

func newMiddleware(t *testing.T) (*Middleware, *api) {
	t.Helper()
	a := &api{}
	m := New(a, Config{
		APIPrefix: "/v1",
		ErrorBody: func(status int, code, message string) []byte {
			b, _ := json.Marshal(map[string]any{"error": map[string]any{"code": code, "message": message, "details": map[string]any{}}})
			return b
		},
	})
	return m, a
}

func do(t *testing.T, h http.Handler, method, path, body string) *httptest.ResponseRecorder {
	t.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(method, path, strings.NewReader(body)))
	return rec
}

func errorCode(t *testing.T, rec *httptest.ResponseRecorder) string {
	t.Helper()
	var body struct {
		Error struct{ Code string } `json:"error"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil {
		t.Fatalf("error body %q: %v", rec.Body.String(), err)
	}
	return body.Error.Code
}

func TestRoute(t *testing.T) {
	for in, want := range map[string]string{
		"/servers":                     "/servers",
		"/servers/42":                  "/servers/{id}",
		"/servers/42/actions/poweroff": "/servers/{id}/actions/poweroff",
		"/servers/42/actions/7":        "/servers/{id}/actions/{id}",
		"/images/ubuntu-24.04":         "/images/ubuntu-24.04",
		"/":                            "/",
	} {
		if got := Route(in); got != want {
			t.Errorf("Route(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestStatsCountByRouteAndSkipControl(t *testing.T) {
	m, _ := newMiddleware(t)
	do(t, m, "GET", "/v1/servers/1", "")
	do(t, m, "GET", "/v1/servers/2", "")
	do(t, m, "POST", "/v1/servers/2/actions/poweroff", "")
	do(t, m, "GET", "/v1/servers?page=2", "")
	do(t, m, "GET", "/_emulator/stats", "")

	got := m.Stats()
	want := map[string]int{"GET /servers/{id}": 2, "POST /servers/{id}/actions/poweroff": 1, "GET /servers": 1}
	if len(got) != len(want) {
		t.Fatalf("stats = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("stats[%q] = %d, want %d", k, got[k], v)
		}
	}
	m.Reset()
	if got := m.Stats(); len(got) != 0 {
		t.Errorf("after Reset stats = %v", got)
	}
}

func TestFailNextAppliesToNextMatchingCallsOnly(t *testing.T) {
	m, a := newMiddleware(t)
	if err := m.FailNext("GET", "/servers/{id}", 2, 503, ""); err != nil {
		t.Fatal(err)
	}
	if rec := do(t, m, "POST", "/v1/servers/1", ""); rec.Code != 200 {
		t.Fatalf("other method: status %d", rec.Code)
	}
	if rec := do(t, m, "GET", "/v1/servers", ""); rec.Code != 200 {
		t.Fatalf("other route: status %d", rec.Code)
	}
	for range 2 {
		rec := do(t, m, "GET", "/v1/servers/7", "")
		if rec.Code != 503 || errorCode(t, rec) != "unavailable" {
			t.Fatalf("status %d body %s, want 503 unavailable", rec.Code, rec.Body)
		}
		if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
			t.Errorf("content type %q", ct)
		}
	}
	if rec := do(t, m, "GET", "/v1/servers/7", ""); rec.Code != 200 {
		t.Fatalf("third call: status %d, want the rule used up", rec.Code)
	}
	if a.calls.Load() != 3 {
		t.Errorf("api reached %d times, want 3", a.calls.Load())
	}
	if n := m.Stats()["GET /servers/{id}"]; n != 3 {
		t.Errorf("failed calls are requests too: counted %d, want 3", n)
	}
}

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

func TestDropCommitsThenClosesConnection(t *testing.T) {
	m, a := newMiddleware(t)
	srv := httptest.NewServer(m)
	defer srv.Close()
	if err := m.DropNext("POST", "/servers", 1); err != nil {
		t.Fatal(err)
	}

	resp, err := srv.Client().Post(srv.URL+"/v1/servers", "application/json", strings.NewReader(`{}`))
	if err == nil {
		resp.Body.Close()
		t.Fatalf("dropped call answered with status %d", resp.StatusCode)
	}
	if a.calls.Load() != 1 {
		t.Fatalf("api reached %d times, want the write committed once", a.calls.Load())
	}
	resp, err = srv.Client().Post(srv.URL+"/v1/servers", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatalf("next call: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("next call: status %d", resp.StatusCode)
	}
}

func TestLatency(t *testing.T) {
	m, _ := newMiddleware(t)
	const d = 20 * time.Millisecond
	m.SetLatency(d)
	start := time.Now()
	do(t, m, "GET", "/v1/servers", "")
	if took := time.Since(start); took < d {
		t.Errorf("global latency: call took %v, want at least %v", took, d)
	}

	m.SetLatency(0)
	if err := m.AddRule(Rule{Path: "/servers", Count: 1, Latency: Duration(d)}); err != nil {
		t.Fatal(err)
	}
	start = time.Now()
	if rec := do(t, m, "GET", "/v1/servers", ""); rec.Code != 200 {
		t.Fatalf("latency-only rule must let the call through, got %d", rec.Code)
	}
	if took := time.Since(start); took < d {
		t.Errorf("rule latency: call took %v, want at least %v", took, d)
	}
}

func TestLatencyHonoursCancel(t *testing.T) {
	m, a := newMiddleware(t)
	m.SetLatency(time.Hour)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	req := httptest.NewRequest("GET", "/v1/servers", nil).WithContext(ctx)
	done := make(chan struct{})
	go func() {
		m.ServeHTTP(httptest.NewRecorder(), req)
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("latency ignored the cancelled context")
	}
	if a.calls.Load() != 0 {
		t.Error("a cancelled request reached the api")
	}
}

func TestRateLimitBudget(t *testing.T) {
	a := &api{}
	now := time.Unix(1_700_000_000, 0)
	var mu sync.Mutex
	m := New(a, Config{APIPrefix: "/v1", Now: func() time.Time { mu.Lock(); defer mu.Unlock(); return now }})
	m.SetRateLimit(2, time.Hour)

	for i, want := range []string{"1", "0"} {
		rec := do(t, m, "GET", "/v1/servers", "")
		if rec.Code != 200 {
			t.Fatalf("call %d: status %d", i, rec.Code)
		}
		if got := rec.Header().Get("RateLimit-Remaining"); got != want {
			t.Errorf("call %d: remaining %q, want %q", i, got, want)
		}
		if got := rec.Header().Get("RateLimit-Limit"); got != "2" {
			t.Errorf("call %d: limit %q", i, got)
		}
	}
	rec := do(t, m, "GET", "/v1/servers", "")
	if rec.Code != http.StatusTooManyRequests || errorCode(t, rec) != "rate_limit_exceeded" {
		t.Fatalf("over budget: status %d body %s", rec.Code, rec.Body)
	}
	// Two requests are missing, one comes back every 30 minutes.
	if got, want := rec.Header().Get("RateLimit-Reset"), "1700003600"; got != want {
		t.Errorf("reset %q, want %q", got, want)
	}
	if a.calls.Load() != 2 {
		t.Errorf("api reached %d times, want 2", a.calls.Load())
	}

	mu.Lock()
	now = now.Add(30 * time.Minute)
	mu.Unlock()
	if rec := do(t, m, "GET", "/v1/servers", ""); rec.Code != 200 {
		t.Fatalf("after refill: status %d", rec.Code)
	}
	m.SetRateLimit(0, 0)
	if rec := do(t, m, "GET", "/v1/servers", ""); rec.Header().Get("RateLimit-Limit") != "" {
		t.Error("headers still sent after the budget was removed")
	}
}

func TestControlAPI(t *testing.T) {
	m, _ := newMiddleware(t)
	if rec := do(t, m, "POST", "/_emulator/faults", `{"rules":[{"method":"GET","path":"/servers","count":1,"status":502}],"latency":"1ms","rate_limit":{"limit":100,"window":"1h"}}`); rec.Code != 200 {
		t.Fatalf("POST faults: %d %s", rec.Code, rec.Body)
	}
	if rec := do(t, m, "POST", "/_emulator/faults", `[{"path":"/servers/{id}","status":404,"count":3}]`); rec.Code != 200 {
		t.Fatalf("POST faults as array: %d %s", rec.Code, rec.Body)
	}
	rec := do(t, m, "GET", "/_emulator/faults", "")
	var st State
	if err := json.Unmarshal(rec.Body.Bytes(), &st); err != nil {
		t.Fatal(err)
	}
	if len(st.Rules) != 2 || st.Latency.Std() != time.Millisecond || st.RateLimit == nil || st.RateLimit.Limit != 100 {
		t.Fatalf("state = %+v", st)
	}

	if rec := do(t, m, "GET", "/v1/servers", ""); rec.Code != 502 || errorCode(t, rec) != "bad_gateway" {
		t.Fatalf("scripted call: %d %s", rec.Code, rec.Body)
	}
	// Control routes are neither faulted nor counted.
	if err := m.AddRule(Rule{Status: 500}); err != nil {
		t.Fatal(err)
	}
	rec = do(t, m, "GET", "/_emulator/stats", "")
	var stats map[string]int
	if err := json.Unmarshal(rec.Body.Bytes(), &stats); err != nil || rec.Code != 200 {
		t.Fatalf("stats: %d %s", rec.Code, rec.Body)
	}
	if len(stats) != 1 || stats["GET /servers"] != 1 {
		t.Errorf("stats = %v", stats)
	}

	if rec := do(t, m, "POST", "/_emulator/faults", `{"rules":[{"path":"/x"}]}`); rec.Code != 400 {
		t.Errorf("invalid rule accepted: %d", rec.Code)
	}
	if rec := do(t, m, "POST", "/_emulator/faults", `{"bogus":1}`); rec.Code != 400 {
		t.Errorf("unknown field accepted: %d", rec.Code)
	}
	if rec := do(t, m, "DELETE", "/_emulator/faults", ""); rec.Code != 204 {
		t.Errorf("DELETE faults: %d", rec.Code)
	}
	if rec := do(t, m, "DELETE", "/_emulator/stats", ""); rec.Code != 204 {
		t.Errorf("DELETE stats: %d", rec.Code)
	}
	if st := m.State(); len(st.Rules) != 0 || st.Latency != 0 || st.RateLimit != nil {
		t.Errorf("after DELETE state = %+v", st)
	}
	if len(m.Stats()) != 0 {
		t.Errorf("after DELETE stats = %v", m.Stats())
	}
	if rec := do(t, m, "GET", "/_emulator/nope", ""); rec.Code != 404 {
		t.Errorf("unknown control route: %d", rec.Code)
	}
}

func TestConcurrentFailNextFailsExactlyN(t *testing.T) {
	m, a := newMiddleware(t)
	if err := m.FailNext("GET", "/servers", 10, 503, "unavailable"); err != nil {
		t.Fatal(err)
	}
	var failed atomic.Int64
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			if rec := do(t, m, "GET", "/v1/servers", ""); rec.Code == 503 {
				failed.Add(1)
			}
		})
	}
	wg.Wait()
	if failed.Load() != 10 || a.calls.Load() != 40 {
		t.Errorf("failed %d, passed %d; want 10 and 40", failed.Load(), a.calls.Load())
	}
	if m.Stats()["GET /servers"] != 50 {
		t.Errorf("counted %d, want 50", m.Stats()["GET /servers"])
	}
}
