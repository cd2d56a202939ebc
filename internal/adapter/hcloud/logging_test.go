package hcloud

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// textLogger renders every line as a log file would show it: level,
// message, then the fields sorted, a value quoted when it holds a space.
type textLogger struct{ lockedBuffer }

func (l *textLogger) Debug(_ context.Context, msg string, f map[string]any) { l.line("DEBUG", msg, f) }
func (l *textLogger) Info(_ context.Context, msg string, f map[string]any)  { l.line("INFO", msg, f) }
func (l *textLogger) Warn(_ context.Context, msg string, f map[string]any)  { l.line("WARN", msg, f) }

func (l *textLogger) line(level, msg string, f map[string]any) {
	var sb strings.Builder
	sb.WriteString(level + " " + msg + ":")
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range f {
			if !yield(k) {
				return
			}
		}
	}) {
		v := fmt.Sprint(f[k])
		if strings.ContainsAny(v, " \"") {
			v = strconv.Quote(v)
		}
		sb.WriteString(" " + k + "=" + v)
	}
	sb.WriteString("\n")
	_, _ = l.Write([]byte(sb.String()))
}

// lines returns the request lines logged.
func (l *textLogger) lines() []string {
	var out []string
	for _, line := range strings.Split(l.String(), "\n") {
		if strings.HasPrefix(line, "DEBUG API request:") {
			out = append(out, line)
		}
	}
	return out
}

func TestRoute(t *testing.T) {
	for path, want := range map[string]string{
		"":                             "",
		"/servers":                     "/servers",
		"/servers/42":                  "/servers/{id}",
		"/servers/42/actions":          "/servers/{id}/actions",
		"/servers/42/actions/poweron":  "/servers/{id}/actions/poweron",
		"/servers/42/actions/shutdown": "/servers/{id}/actions/shutdown",
		"/servers/42/actions/rebuild":  "/servers/{id}/actions/{action}",
		"/images/42/actions/reset":     "/images/{id}/actions/{action}",
		"42/actions/reset":             "{id}/actions/{action}",
		"/servers/42/actions/7":        "/servers/{id}/actions/{id}",
		"/servers/actions":             "/servers/actions",
		"/servers/actions/7":           "/servers/actions/{id}",
		"/actions/9":                   "/actions/{id}",
		"/server_types/cx22":           "/server_types/{value}",
		"/images/SENTINEL-name":        "/images/{value}",
		"/SENTINEL/servers":            "/{value}/servers",
		"/servers/SENTINEL/actions/x":  "/servers/{value}/actions/{value}",
		"/pricing":                     "/pricing",
		"/ssh_keys/3":                  "/ssh_keys/{id}",
	} {
		if got := route(path); got != want {
			t.Errorf("route(%q) = %q, want %q", path, got, want)
		}
	}
}

// TestRequestLogHoldsNoSecret: a request whose base path, query, headers
// and body all hold sentinels logs its method, route template, status,
// attempt, duration and correlation id, and none of the sentinels.
func TestRequestLogHoldsNoSecret(t *testing.T) {
	logs := &textLogger{}
	base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		_, _ = io.Copy(io.Discard, r.Body)
		return &http.Response{StatusCode: 200, Request: r,
			Header: http.Header{"X-Correlation-Id": {"c0ffee42"}, "Set-Cookie": {"SENTINEL-cookie"}},
			Body:   io.NopCloser(strings.NewReader(`{"server":{"user_data":"SENTINEL-answer"}}`))}, nil
	})
	client := &http.Client{Transport: logAttempts(newRequestLog(base, logs, "https://api.example/SENTINEL-base/v1"))}
	req, err := http.NewRequest("PUT", "https://api.example/SENTINEL-base/v1/servers/42?label_selector=SENTINEL-query&name=SENTINEL-name",
		strings.NewReader(`{"user_data":"SENTINEL-body"}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer SENTINEL-token")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.ReadAll(resp.Body)
	_ = resp.Body.Close()

	lines := logs.lines()
	if len(lines) != 1 {
		t.Fatalf("%d request lines, want 1:\n%s", len(lines), logs)
	}
	for _, want := range []string{"method=PUT", "route=/servers/{id}", "status=200", "request_id=c0ffee42", "attempt=1/2", "duration="} {
		if !strings.Contains(lines[0], want) {
			t.Errorf("the request line holds no %s: %s", want, lines[0])
		}
	}
	if strings.Contains(logs.String(), "SENTINEL") {
		t.Errorf("the request log holds a sentinel: %s", logs)
	}
}

// TestRequestLogOfAnAnswerCutShort: an answer that stops half-way logs its
// status and the class of the failure, not the error's text.
func TestRequestLogOfAnAnswerCutShort(t *testing.T) {
	logs := &textLogger{}
	base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Request: r, Header: http.Header{},
			Body: io.NopCloser(io.MultiReader(strings.NewReader(`{"ser`), errReader{io.ErrUnexpectedEOF}))}, nil
	})
	client := &http.Client{Transport: logAttempts(newRequestLog(base, logs, "https://api.example/v1"))}
	resp, err := client.Get("https://api.example/v1/servers?name=SENTINEL-name")
	if err != nil {
		t.Fatal(err)
	}
	_, err = io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if err == nil {
		t.Fatal("the body read did not fail")
	}
	lines := logs.lines()
	if len(lines) != 1 || !strings.Contains(lines[0], `error="answer cut short: connection closed before the answer ended"`) || !strings.Contains(lines[0], "status=200") {
		t.Fatalf("want one line with the status and the failure's class:\n%s", logs)
	}
	if strings.Contains(logs.String(), "SENTINEL") {
		t.Errorf("the request log holds the query: %s", logs)
	}
}

type errReader struct{ err error }

func (r errReader) Read([]byte) (int, error) { return 0, r.err }

// TestRequestLogThroughTheAccount: the adapter's own calls against the
// emulator log each request with its route template, status and the
// emulator's correlation id, ids never in the route; a request the
// endpoint never answers logs both attempts and the class of the failure.
func TestRequestLogThroughTheAccount(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	logs := &textLogger{}
	env := testEnv(testToken)
	env.Log = logs
	a := newTestAccountWith(t, testSettings(endpoint), env)
	m, err := a.Create(ctxT(t), testCall("web-1"), testRequest("web-1"))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Power(ctxT(t), m.ID, adapter.PowerOff); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Get(ctxT(t), m.ID); err != nil {
		t.Fatal(err)
	}
	lines := logs.lines()
	counted := 0
	for _, n := range e.Stats() {
		counted += n
	}
	if len(lines) != counted {
		t.Errorf("%d request lines for %d requests the emulator counted:\n%s", len(lines), counted, logs)
	}
	for _, want := range [][]string{
		{"method=POST", "route=/servers ", "status=201"},
		{"method=GET", "route=/servers/{id} ", "status=200"},
		{"method=POST", "route=/servers/{id}/actions/poweroff ", "status=201"},
	} {
		if !slices.ContainsFunc(lines, func(line string) bool {
			return !slices.ContainsFunc(want, func(w string) bool { return !strings.Contains(line, w) })
		}) {
			t.Errorf("no line holds all of %q:\n%s", want, logs)
		}
	}
	id := regexp.MustCompile(`request_id=[0-9a-f]{16}\b`)
	digits := regexp.MustCompile(`route=\S*/[0-9]+`)
	for _, line := range lines {
		if !id.MatchString(line) {
			t.Errorf("a line holds no correlation id: %s", line)
		}
		if digits.MatchString(line) || strings.Contains(line, m.ID) {
			t.Errorf("a route holds an id: %s", line)
		}
	}

	silent, _ := silentEndpoint(t)
	logs = &textLogger{}
	env.Log = logs
	quiet := newTestAccountWith(t, testSettings(silent), env, func(o *options) {
		o.requestTimeout = 50 * time.Millisecond
	})
	_, err = quiet.Get(ctxT(t), "42")
	if !adapter.NoAnswer(err) {
		t.Fatalf("err = %v, want no answer", err)
	}
	for _, want := range []string{"attempt=1/2", "attempt=2/2", `error="no answer within the bound"`} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the unanswered request's lines hold no %s:\n%s", want, logs)
		}
	}
	if strings.Contains(logs.String(), "status=") {
		t.Errorf("an unanswered request logs a status:\n%s", logs)
	}
}
