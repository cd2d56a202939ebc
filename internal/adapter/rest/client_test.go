package rest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/adaptertest"
)

// answerError is what the backend's Failed makes of an error answer in
// these tests: the answer itself.
type answerError struct{ Answer }

func (e *answerError) Error() string { return fmt.Sprintf("HTTP %d", e.Status) }

// rig is a client against url whose credential is whatever secret holds
// when a request is made, and which counts what it hands the backend.
type rig struct {
	*Client
	secret               atomic.Value
	resolved, classified atomic.Int32
	log                  *adaptertest.Log
}

func newRig(t *testing.T, endpoint string, edit func(*Config)) *rig {
	t.Helper()
	r := &rig{log: &adaptertest.Log{}}
	r.secret.Store("first-secret")
	cfg := Config{
		Name: "the Test API", Endpoint: endpoint, Example: "https://api.example.com", Credential: "the token",
		Timeout: time.Hour, Env: adapter.Env{Log: r.log, UserAgent: "rest-test"}, LogName: "Test",
		Authenticate: func(_ context.Context, req *http.Request) ([]string, error) {
			r.resolved.Add(1)
			s := r.secret.Load().(string)
			req.Header.Set("Authorization", "Token "+s)
			return []string{s}, nil
		},
		Failed: func(a Answer) error { return &answerError{a} },
		Classify: func(err error) error {
			r.classified.Add(1)
			var f *Failure
			if errors.As(err, &f) {
				return f.Classified()
			}
			return err
		},
	}
	if edit != nil {
		edit(&cfg)
	}
	r.Client = New(cfg)
	return r
}

func code(err error) adapter.Code {
	var e *adapter.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// The credential is resolved for each request, and a change of the
// secret behind the reference is what the next request carries.
func TestCredentialsResolvedPerRequest(t *testing.T) {
	var seen []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		seen = append(seen, req.Header.Get("Authorization"))
		_, _ = io.WriteString(w, `{}`)
	}))
	defer srv.Close()
	r := newRig(t, srv.URL, nil)
	if err := r.Get(t.Context(), "/a", nil); err != nil {
		t.Fatal(err)
	}
	r.secret.Store("second-secret")
	if err := r.Get(t.Context(), "/a", nil); err != nil {
		t.Fatal(err)
	}
	if want := []string{"Token first-secret", "Token second-secret"}; fmt.Sprint(seen) != fmt.Sprint(want) || r.resolved.Load() != 2 {
		t.Errorf("the server saw %q after %d resolutions, want %q after 2", seen, r.resolved.Load(), want)
	}
	if shown := fmt.Sprintf("%+v %+v", *r.Client, r.Client.cfg); strings.Contains(shown, "secret") {
		t.Errorf("the client keeps a credential: %s", shown)
	}
}

// A request the API takes and never answers ends at the request's own
// bound, not the caller's deadline; an answer cut off there says so. The
// transport waits for the request's context, so which bound ended it does
// not depend on how fast the machine is.
func TestEveryRequestHasItsBound(t *testing.T) {
	r := newRig(t, "http://127.0.0.1:9", func(c *Config) {
		c.Timeout = 20 * time.Millisecond
		c.Transport = roundTrip(func(req *http.Request) (*http.Response, error) {
			if req.URL.Path == "/cut" {
				return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Header: http.Header{}, Request: req,
					Body: io.NopCloser(io.MultiReader(strings.NewReader(`{"a":`), waitReader{req.Context()}))}, nil
			}
			<-req.Context().Done()
			return nil, req.Context().Err()
		})
	})
	// A long caller's deadline, which only a missing bound would reach.
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	var out any
	err := r.Get(ctx, "/silent", &out)
	if code(err) != adapter.Transient || !errors.Is(err, ErrRequestBound) || !strings.Contains(err.Error(), "did not answer /silent within 20ms") {
		t.Errorf("silent: %v", err)
	}
	err = r.Do(ctx, Call{Method: http.MethodGet, Route: "/cut", Timeout: 30 * time.Millisecond}, &out)
	if code(err) != adapter.Transient || !errors.Is(err, ErrRequestBound) || !strings.Contains(err.Error(), "began to answer but did not finish /cut within 30ms") {
		t.Errorf("cut: %v", err)
	}
	if r.classified.Load() != 2 {
		t.Errorf("%d failures handed to classify, want 2", r.classified.Load())
	}
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// waitReader is a body whose rest never comes: it ends with its context.
type waitReader struct{ ctx context.Context }

func (w waitReader) Read([]byte) (int, error) {
	<-w.ctx.Done()
	return 0, w.ctx.Err()
}

// The caller's own cancel is no bound of the request's.
func TestCancelIsTheCallers(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer srv.Close()
	r := newRig(t, srv.URL, nil)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	err := r.Get(ctx, "/a", nil)
	if code(err) != adapter.Transient || !errors.Is(err, context.Canceled) || errors.Is(err, ErrRequestBound) {
		t.Errorf("got %v", err)
	}
}

// A redirect is refused and not followed: the credential goes nowhere
// else, and the error points at the endpoint setting.
func TestRedirectIsNotFollowed(t *testing.T) {
	var elsewhere atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { elsewhere.Add(1) }))
	defer other.Close()
	srv := httptest.NewServer(http.RedirectHandler(other.URL+"/take", http.StatusFound))
	defer srv.Close()
	r := newRig(t, srv.URL, nil)
	err := r.Get(t.Context(), "/a", nil)
	var e *adapter.Error
	if !errors.As(err, &e) || e.Code != adapter.InvalidConfig || e.Field != "endpoint" || !strings.Contains(e.Message, "redirect") {
		t.Errorf("got %v", err)
	}
	if elsewhere.Load() != 0 || strings.Contains(err.Error(), other.URL) {
		t.Errorf("the redirect was followed (%d requests) or its target named: %v", elsewhere.Load(), err)
	}
}

// The log shows the route template, never the filled path or the query,
// and says method, route and status in its message.
func TestLogShowsTheRouteTemplate(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, `{}`) }))
	defer srv.Close()
	r := newRig(t, srv.URL, nil)
	err := r.Do(t.Context(), Call{Method: http.MethodGet, Route: "/server/{n}", Args: []string{"path-value-4711"},
		Query: url.Values{"q": {"query-value-4712"}}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := r.log.Text()
	if !strings.Contains(got, "Test request: GET /server/{n} 200 in ") || !strings.Contains(got, "route:/server/{n}") ||
		strings.Contains(got, "4711") || strings.Contains(got, "4712") || strings.Contains(got, "first-secret") {
		t.Errorf("log:\n%s", got)
	}
}

// An error answer reaches the backend's Failed with its status, headers
// and body, a credential it repeats withheld in body and status line, and
// comes back as Failed made it, for the caller to read and classify.
func TestErrorAnswerGoesToFailedWithheld(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		tok := strings.TrimPrefix(req.Header.Get("Authorization"), "Token ")
		body, _ := json.Marshal(map[string]string{"message": "bad token " + tok})
		w.Header().Set("Retry-After", "3")
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write(body)
	}))
	defer srv.Close()
	r := newRig(t, srv.URL, nil)
	r.secret.Store(`s3cr<e>t&"x`)
	err := r.Get(t.Context(), "/a", nil)
	var a *answerError
	if !errors.As(err, &a) || err != error(a) {
		t.Fatalf("got %v, want Failed's own error", err)
	}
	if a.Status != http.StatusNotFound || a.Route != "/a" || a.RetryAfter() != 3*time.Second || !strings.Contains(string(a.Body), "bad token (withheld)") {
		t.Errorf("answer: %+v (%s)", a.Answer, a.Body)
	}
	if strings.Contains(string(a.Body), "s3cr") || r.classified.Load() != 0 {
		t.Errorf("body %s repeats the secret, or the client classified (%d)", a.Body, r.classified.Load())
	}
}

// A credential echoed in the status line's reason phrase is withheld too.
func TestReasonPhraseWithheld(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		_, _ = http.ReadRequest(bufio.NewReader(conn))
		_, _ = io.WriteString(conn, "HTTP/1.1 500 bad token first-secret\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
	}()
	r := newRig(t, "http://"+ln.Addr().String(), nil)
	err = r.Get(t.Context(), "/a", nil)
	var a *answerError
	if !errors.As(err, &a) || strings.Contains(a.StatusLine, "first-secret") || !strings.Contains(a.StatusLine, "bad token (withheld)") {
		t.Errorf("got %v: %+v", err, a)
	}
}

func TestRetryAfter(t *testing.T) {
	for v, want := range map[string]time.Duration{"7": 7 * time.Second, "": 0, "0": 0, "-2": 0, "soon": 0} {
		if got := (Answer{Header: http.Header{"Retry-After": {v}}}).RetryAfter(); got != want {
			t.Errorf("Retry-After %q: %s, want %s", v, got, want)
		}
	}
}
