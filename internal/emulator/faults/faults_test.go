package faults

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
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

// TestResetClosesWithoutCommitting: a reset call never reaches the API,
// its client gets a transport error, and the next call is served.
func TestResetClosesWithoutCommitting(t *testing.T) {
	m, a := newMiddleware(t)
	srv := httptest.NewServer(m)
	defer srv.Close()
	if err := m.ResetNext("POST", "/servers", 1); err != nil {
		t.Fatal(err)
	}
	resp, err := srv.Client().Post(srv.URL+"/v1/servers", "application/json", strings.NewReader(`{}`))
	if err == nil {
		resp.Body.Close()
		t.Fatalf("reset call answered with status %d", resp.StatusCode)
	}
	if a.calls.Load() != 0 {
		t.Fatalf("api reached %d times, want nothing committed", a.calls.Load())
	}
	resp, err = srv.Client().Post(srv.URL+"/v1/servers", "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatalf("next call: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || a.calls.Load() != 1 {
		t.Fatalf("next call: status %d, api reached %d times", resp.StatusCode, a.calls.Load())
	}
}

// TestDelaysHoldTheCall: each delay, global or in a rule, holds the call
// at least as long as it says, and a patient client gets the API's answer.
func TestDelaysHoldTheCall(t *testing.T) {
	const d = 20 * time.Millisecond
	for name, set := range map[string]func(*Middleware) error{
		"global latency":     func(m *Middleware) error { m.SetLatency(d); return nil },
		"delay_if_connected": func(m *Middleware) error { return m.DelayIfConnectedNext("GET", "/servers", 1, d) },
		"delay_then_commit":  func(m *Middleware) error { return m.DelayThenCommitNext("GET", "/servers", 1, d) },
		"commit_then_delay":  func(m *Middleware) error { return m.CommitThenDelayNext("GET", "/servers", 1, d) },
	} {
		m, a := newMiddleware(t)
		if err := set(m); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		rec := do(t, m, "GET", "/v1/servers", "")
		if took := time.Since(start); took < d {
			t.Errorf("%s: call took %v, want at least %v", name, took, d)
		}
		if rec.Code != 200 || rec.Body.String() != `{"ok":true}` || a.calls.Load() != 1 {
			t.Errorf("%s: answered %d %q after %d calls, want the API's answer once", name, rec.Code, rec.Body, a.calls.Load())
		}
	}
}

// TestDelaysWhenTheClientHasGone tells the three delays apart by the write
// of a client that is gone before the delay ends (its context is done on
// arrival): delay_if_connected and the global latency never run it,
// delay_then_commit runs it after the delay with the body it took in and a
// live context, commit_then_delay runs it at once.
func TestDelaysWhenTheClientHasGone(t *testing.T) {
	const d = time.Millisecond
	for _, tc := range []struct {
		name    string
		set     func(*Middleware) error
		commits bool
	}{
		{"global latency", func(m *Middleware) error { m.SetLatency(d); return nil }, false},
		{"delay_if_connected", func(m *Middleware) error { return m.DelayIfConnectedNext("POST", "/servers", 1, d) }, false},
		{"delay_then_commit", func(m *Middleware) error { return m.DelayThenCommitNext("POST", "/servers", 1, d) }, true},
		{"delay_then_commit after the global latency", func(m *Middleware) error {
			m.SetLatency(d)
			return m.DelayThenCommitNext("POST", "/servers", 1, d)
		}, true},
		{"commit_then_delay", func(m *Middleware) error { return m.CommitThenDelayNext("POST", "/servers", 1, time.Hour) }, true},
	} {
		rec := &recorder{}
		m := New(rec, Config{APIPrefix: "/v1"})
		if err := tc.set(m); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		m.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "/v1/servers", strings.NewReader(`{"name":"web-1"}`)).WithContext(ctx))
		if got := rec.committed(); (len(got) == 1) != tc.commits || len(got) > 1 {
			t.Errorf("%s: the API ran the write of a client that had gone %d times, want committed=%v", tc.name, len(got), tc.commits)
		} else if tc.commits && got[0] != `{"name":"web-1"}` {
			t.Errorf("%s: the API read body %q, want the request's", tc.name, got[0])
		}
	}
}

// TestDelayThenCommitOverTheNetwork: a client that gives up on a held POST
// gets no answer, and the API still commits the write, with its body,
// after the client left.
func TestDelayThenCommitOverTheNetwork(t *testing.T) {
	rec := &recorder{arrived: make(chan string, 1)}
	m := New(rec, Config{APIPrefix: "/v1"})
	srv := httptest.NewServer(m)
	defer srv.Close()
	if err := m.DelayThenCommitNext("POST", "/servers", 1, 300*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	client := srv.Client()
	client.Timeout = 20 * time.Millisecond
	resp, err := client.Post(srv.URL+"/v1/servers", "application/json", strings.NewReader(`{"name":"late"}`))
	if err == nil {
		resp.Body.Close()
		t.Fatalf("held call answered with status %d before the client's timeout", resp.StatusCode)
	}
	if n := len(rec.committed()); n != 0 {
		t.Fatalf("the write committed %d times before the delay ended", n)
	}
	select {
	case body := <-rec.arrived:
		if body != `{"name":"late"}` {
			t.Errorf("committed body %q", body)
		}
	case <-time.After(time.Minute):
		t.Fatal("the write never committed after its client left")
	}
}

// recorder is an API that keeps the body of every write it runs and
// refuses to run one whose context is done, as a handler that checks its
// context would.
type recorder struct {
	mu      sync.Mutex
	bodies  []string
	arrived chan string
}

func (rc *recorder) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Context().Err() != nil {
		return
	}
	b, _ := io.ReadAll(r.Body)
	rc.mu.Lock()
	rc.bodies = append(rc.bodies, string(b))
	rc.mu.Unlock()
	if rc.arrived != nil {
		rc.arrived <- string(b)
	}
	_, _ = io.WriteString(w, `{"ok":true}`)
}

func (rc *recorder) committed() []string {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return slices.Clone(rc.bodies)
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
	case <-time.After(time.Minute):
		t.Fatal("latency ignored the cancelled context")
	}
	if a.calls.Load() != 0 {
		t.Error("a cancelled request reached the api")
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

// TestAHeldCallWhoseClientLeavesGetsNoAnswer: a client that gives up on a
// held call closes its side of the connection, and over TLS it says so
// (close_notify) a moment before the socket goes; the hold ends then. If
// the handler simply returned, net/http would answer "200 OK" with an
// empty body in that moment, and a client still reading (Go's transport
// takes an answer that races its own cancel) would see a call it gave up
// on succeed. Half-closing the connection is that moment, held open.
func TestAHeldCallWhoseClientLeavesGetsNoAnswer(t *testing.T) {
	for name, set := range map[string]func(*Middleware) error{
		"global latency":     func(m *Middleware) error { m.SetLatency(time.Hour); return nil },
		"delay_if_connected": func(m *Middleware) error { return m.DelayIfConnectedNext("POST", "/servers", 1, time.Hour) },
		"commit_then_delay":  func(m *Middleware) error { return m.CommitThenDelayNext("POST", "/servers", 1, time.Hour) },
	} {
		t.Run(name, func(t *testing.T) {
			m, _ := newMiddleware(t)
			if err := set(m); err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(m)
			defer srv.Close()
			conn, err := net.Dial("tcp", srv.Listener.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if _, err := io.WriteString(conn, "POST /v1/servers HTTP/1.1\r\nHost: emulator\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"); err != nil {
				t.Fatal(err)
			}
			if err := conn.(*net.TCPConn).CloseWrite(); err != nil {
				t.Fatal(err)
			}
			// Only a connection left open forever meets the deadline.
			if err := conn.SetReadDeadline(time.Now().Add(time.Minute)); err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(conn)
			if len(got) != 0 {
				t.Errorf("a held call whose client left was answered %q", got)
			}
			if errors.Is(err, os.ErrDeadlineExceeded) {
				t.Errorf("a held call whose client left was kept open instead of closed")
			}
		})
	}
}
