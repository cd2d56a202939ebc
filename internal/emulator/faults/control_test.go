package faults

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

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
	if rec := do(t, m, "POST", "/_emulator/faults", `{"latency":"-5s"}`); rec.Code != 400 || !strings.Contains(rec.Body.String(), "latency -5s") {
		t.Errorf("negative latency: %d %s, want 400 with the reason", rec.Code, rec.Body)
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

func TestMaxPageSizeThroughControlAPI(t *testing.T) {
	m, _ := newMiddleware(t)
	if m.MaxPageSize() != 0 {
		t.Fatalf("initial page size %d, want 0 (the API's own)", m.MaxPageSize())
	}
	if rec := do(t, m, "POST", "/_emulator/faults", `{"max_page_size":3}`); rec.Code != 200 {
		t.Fatalf("POST faults: %d %s", rec.Code, rec.Body)
	}
	var st State
	if err := json.Unmarshal(do(t, m, "GET", "/_emulator/faults", "").Body.Bytes(), &st); err != nil {
		t.Fatal(err)
	}
	if st.MaxPageSize != 3 || m.MaxPageSize() != 3 {
		t.Errorf("state %+v, MaxPageSize %d; want 3", st, m.MaxPageSize())
	}
	if rec := do(t, m, "POST", "/_emulator/faults", `{"max_page_size":-1,"latency":"1s"}`); rec.Code != 400 || !strings.Contains(rec.Body.String(), "max_page_size -1") {
		t.Errorf("negative page size: %d %s", rec.Code, rec.Body)
	}
	if st := m.State(); st.Latency != 0 || st.MaxPageSize != 3 {
		t.Errorf("a refused body changed the settings: %+v", st)
	}
	if rec := do(t, m, "DELETE", "/_emulator/faults", ""); rec.Code != 204 || m.MaxPageSize() != 0 {
		t.Errorf("DELETE faults: %d, page size %d", rec.Code, m.MaxPageSize())
	}
}

// An emulator's own control routes are served beside the middleware's,
// are neither counted nor faulted, and the answer to an unknown route
// names them.
func TestControlRoutesOfTheAPI(t *testing.T) {
	served := 0
	m := New(&api{}, Config{APIPrefix: "/v1", Control: map[string]http.Handler{
		"POST /actions": http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { served++; w.WriteHeader(http.StatusNoContent) }),
	}})
	if err := m.AddRule(Rule{Status: 500}); err != nil {
		t.Fatal(err)
	}
	if rec := do(t, m, "POST", "/_emulator/actions", `{}`); rec.Code != http.StatusNoContent || served != 1 {
		t.Errorf("POST /_emulator/actions: %d, served %d times", rec.Code, served)
	}
	if len(m.Stats()) != 0 {
		t.Errorf("a control route was counted: %v", m.Stats())
	}
	if rec := do(t, m, "GET", "/_emulator/action", ""); rec.Code != http.StatusNotFound || !strings.Contains(rec.Body.String(), "POST /_emulator/actions") {
		t.Errorf("unknown control route: %d %s, want 404 naming POST /_emulator/actions", rec.Code, rec.Body)
	}
}
