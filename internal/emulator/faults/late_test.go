package faults

import (
	"encoding/json"
	"net"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestLatencyAfterCommitsThenAnswers(t *testing.T) {
	m, a := newMiddleware(t)
	if err := m.DelayAnswerNext("POST", "/servers", 1, time.Millisecond); err != nil {
		t.Fatal(err)
	}
	rec := do(t, m, "POST", "/v1/servers", `{}`)
	if rec.Code != 200 || rec.Body.String() != `{"ok":true}` || rec.Header().Get("Content-Type") != "application/json" {
		t.Fatalf("held answer: %d %q %v", rec.Code, rec.Body, rec.Header())
	}
	if a.calls.Load() != 1 {
		t.Fatalf("api reached %d times, want 1", a.calls.Load())
	}
	if len(m.Rules()) != 0 {
		t.Errorf("rule not used up: %+v", m.Rules())
	}
}

func TestLatencyAfterCommitsEvenWhenTheClientGivesUp(t *testing.T) {
	m, a := newMiddleware(t)
	srv := httptest.NewServer(m)
	defer srv.Close()
	if err := m.DelayAnswerNext("POST", "/servers", 1, time.Hour); err != nil {
		t.Fatal(err)
	}
	// The client gives up long before the hour; its connection closing
	// ends the wait, so the test never waits the hour either.
	client := srv.Client()
	client.Timeout = 50 * time.Millisecond
	resp, err := client.Post(srv.URL+"/v1/servers", "application/json", strings.NewReader(`{}`))
	if err == nil {
		resp.Body.Close()
		t.Fatalf("held call answered with status %d before the client's timeout", resp.StatusCode)
	}
	if ne, ok := err.(net.Error); !ok || !ne.Timeout() {
		t.Errorf("client error %v, want a timeout", err)
	}
	if a.calls.Load() != 1 {
		t.Fatalf("api reached %d times, want the write committed once", a.calls.Load())
	}
}

func TestLatencyAfterRules(t *testing.T) {
	m, _ := newMiddleware(t)
	for _, r := range []Rule{
		{Path: "/x", Status: 500, LatencyAfter: Duration(time.Second)},
		{Path: "/x", Drop: true, LatencyAfter: Duration(time.Second)},
		{Path: "/x", LatencyAfter: Duration(-time.Second)},
	} {
		if err := m.AddRule(r); err == nil {
			t.Errorf("AddRule(%+v) accepted", r)
		}
	}
	if rec := do(t, m, "POST", "/_emulator/faults", `[{"method":"POST","path":"/servers","count":1,"latency_after":"2s"}]`); rec.Code != 200 {
		t.Fatalf("POST faults: %d %s", rec.Code, rec.Body)
	}
	if st := m.State(); len(st.Rules) != 1 || st.Rules[0].LatencyAfter.Std() != 2*time.Second {
		t.Errorf("state = %+v", st)
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
