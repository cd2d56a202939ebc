package hcloud

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// fakeTransport answers every request with one canned response or error,
// so errors are built by hcloud-go's own handler chain without a socket.
type fakeTransport struct {
	status int
	header http.Header
	body   string
	err    error
}

func (f fakeTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		_, _ = io.Copy(io.Discard, req.Body)
		_ = req.Body.Close()
	}
	if err := req.Context().Err(); err != nil {
		return nil, err
	}
	if f.err != nil {
		return nil, f.err
	}
	h := http.Header{}
	for k, v := range f.header {
		h[k] = v
	}
	return &http.Response{StatusCode: f.status, Header: h, Body: io.NopCloser(strings.NewReader(f.body)), Request: req}, nil
}

// apiErrorFrom sends one request through a real hcloud-go client whose
// transport answers with rt, and returns the error hcloud-go built.
func apiErrorFrom(t *testing.T, ctx context.Context, rt http.RoundTripper) error {
	t.Helper()
	c := hcloud.NewClient(
		hcloud.WithEndpoint("https://api.example.test/v1"),
		hcloud.WithHTTPClient(&http.Client{Transport: rt}),
		hcloud.WithRetryOpts(hcloud.RetryOpts{MaxRetries: 0}),
	)
	req, err := c.NewRequest(ctx, http.MethodPost, "/servers", strings.NewReader(`{"name":"web-1","user_data":"#cloud-config SENTINEL-BODY"}`))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Do(req, nil)
	if err == nil {
		t.Fatal("the fake answer produced no error")
	}
	return err
}

const date = "Mon, 02 Jan 2006 15:04:05 GMT"

func jsonHeader(extra ...string) http.Header {
	h := http.Header{"Content-Type": {"application/json"}, "X-Correlation-Id": {"c0ffee"}}
	for i := 0; i+1 < len(extra); i += 2 {
		h.Set(extra[i], extra[i+1])
	}
	return h
}

// body renders an error answer shaped as in specs/hcloud-cloud-openapi.json.
func body(code, message, details string) string {
	if details == "" {
		details = "null"
	}
	return `{"error":{"code":"` + code + `","message":"` + message + `","details":` + details + `}}`
}

func TestClassify(t *testing.T) {
	dateT, _ := http.ParseTime(date)
	reset := func(d time.Duration) string { return strconv.FormatInt(dateT.Add(d).Unix(), 10) }
	tests := []struct {
		name       string
		rt         fakeTransport
		ctx        func() context.Context
		code       adapter.Code
		field      string
		retryAfter time.Duration
		contains   []string
	}{
		{name: "404 not_found", rt: fakeTransport{status: 404, header: jsonHeader(), body: body("not_found", "Server with ID '42' not found", "")},
			code: adapter.NotFound, contains: []string{"not_found", "c0ffee"}},
		{name: "401 unauthorized", rt: fakeTransport{status: 401, header: jsonHeader(), body: body("unauthorized", "unable to authenticate", "")},
			code: adapter.AccessDenied, field: "token", contains: []string{"token reference"}},
		{name: "401 token_readonly", rt: fakeTransport{status: 401, header: jsonHeader(), body: body("token_readonly", "The token is read-only", "")},
			code: adapter.AccessDenied, field: "token", contains: []string{"Read & Write"}},
		{name: "403 forbidden", rt: fakeTransport{status: 403, header: jsonHeader(), body: body("forbidden", "insufficient permissions", "")},
			code: adapter.AccessDenied},
		{name: "400 json_error", rt: fakeTransport{status: 400, header: jsonHeader(), body: body("json_error", "invalid JSON input", "")},
			code: adapter.InvalidInput},
		{name: "422 invalid_input on server_type", rt: fakeTransport{status: 422, header: jsonHeader(),
			body: body("invalid_input", "invalid input in field 'server_type'", `{"fields":[{"name":"server_type","messages":["unknown server type"]}]}`)},
			code: adapter.InvalidInput, field: "offer_id"},
		{name: "422 invalid_input on another field", rt: fakeTransport{status: 422, header: jsonHeader(),
			body: body("invalid_input", "invalid input in field 'broken_field': is too long", `{"fields":[{"name":"broken_field","messages":["is too long"]}]}`)},
			code: adapter.InvalidInput, field: "broken_field"},
		{name: "422 invalid_server_type", rt: fakeTransport{status: 422, header: jsonHeader(), body: body("invalid_server_type", "server type is deprecated", "")},
			code: adapter.InvalidInput, field: "offer_id"},
		{name: "409 uniqueness_error", rt: fakeTransport{status: 409, header: jsonHeader(),
			body: body("uniqueness_error", "server name is already used", `{"fields":[{"name":"name"}]}`)},
			code: adapter.Conflict, contains: []string{"import"}},
		{name: "409 conflict", rt: fakeTransport{status: 409, header: jsonHeader(), body: body("conflict", "resource has changed during the request, please retry", "")},
			code: adapter.Transient},
		{name: "423 locked", rt: fakeTransport{status: 423, header: jsonHeader(), body: body("locked", "server is locked", "")},
			code: adapter.Transient},
		{name: "423 protected", rt: fakeTransport{status: 423, header: jsonHeader(), body: body("protected", "server is delete protected", "")},
			code: adapter.InvalidState, contains: []string{"protection"}},
		{name: "429 rate_limit_exceeded, budget empty", rt: fakeTransport{status: 429,
			header: jsonHeader("Date", date, "RateLimit-Limit", "3600", "RateLimit-Remaining", "0", "RateLimit-Reset", reset(time.Hour)),
			body:   body("rate_limit_exceeded", "limit of 3600 requests per hour reached", "")},
			code: adapter.RateLimited, retryAfter: time.Second},
		{name: "429 rate_limit_exceeded, slow refill", rt: fakeTransport{status: 429,
			header: jsonHeader("Date", date, "RateLimit-Limit", "10", "RateLimit-Remaining", "0", "RateLimit-Reset", reset(30*time.Second)),
			body:   body("rate_limit_exceeded", "limit of 10 requests reached", "")},
			code: adapter.RateLimited, retryAfter: 3 * time.Second},
		{name: "403 resource_limit_exceeded", rt: fakeTransport{status: 403, header: jsonHeader(),
			body: body("resource_limit_exceeded", "project limit exceeded", `{"limits":[{"name":"project_limit"}]}`)},
			code: adapter.QuotaExceeded, contains: []string{"limit"}},
		{name: "412 resource_unavailable", rt: fakeTransport{status: 412, header: jsonHeader(), body: body("resource_unavailable", "server type cx32 is unavailable in fsn1", "")},
			code: adapter.InvalidState, contains: []string{"another offer or location"}},
		{name: "422 placement_error", rt: fakeTransport{status: 422, header: jsonHeader(), body: body("placement_error", "error during placement", "")},
			code: adapter.Transient},
		{name: "422 server_not_stopped", rt: fakeTransport{status: 422, header: jsonHeader(), body: body("server_not_stopped", "server must be stopped", "")},
			code: adapter.InvalidState},
		{name: "423 resource_locked", rt: fakeTransport{status: 423, header: jsonHeader(), body: body("resource_locked", "resource is locked", "")},
			code: adapter.InvalidState, contains: []string{"support"}},
		{name: "422 unsupported_error", rt: fakeTransport{status: 422, header: jsonHeader(), body: body("unsupported_error", "action not supported", "")},
			code: adapter.Unsupported},
		{name: "410 deprecated_api_endpoint", rt: fakeTransport{status: 410, header: jsonHeader(),
			body: body("deprecated_api_endpoint", "API functionality was removed", `{"announcement":"https://docs.hetzner.cloud/changelog#x"}`)},
			code: adapter.Unsupported},
		{name: "403 maintenance", rt: fakeTransport{status: 403, header: jsonHeader(), body: body("maintenance", "cannot perform operation due to maintenance", "")},
			code: adapter.Transient},
		{name: "422 service_error", rt: fakeTransport{status: 422, header: jsonHeader(), body: body("service_error", "error within a service", "")},
			code: adapter.Transient},
		{name: "500 server_error", rt: fakeTransport{status: 500, header: jsonHeader(), body: body("server_error", "error within the API backend", "")},
			code: adapter.Transient, contains: []string{"the Hetzner Cloud API failed (HTTP 500 server_error): error within the API backend", "c0ffee"}},
		{name: "503 unavailable", rt: fakeTransport{status: 503, header: jsonHeader(), body: body("unavailable", "service unavailable", "")},
			code: adapter.Transient, contains: []string{"the Hetzner Cloud API failed (HTTP 503 unavailable): service unavailable"}},
		{name: "504 timeout", rt: fakeTransport{status: 504, header: jsonHeader(), body: body("timeout", "request timeout", "")},
			code: adapter.Transient},
		{name: "unknown code", rt: fakeTransport{status: 422, header: jsonHeader(), body: body("brand_new_code", "something new", "")},
			code: adapter.Transient},
		{name: "502 without body", rt: fakeTransport{status: 502, header: http.Header{"Content-Type": {"text/html"}}, body: "<html>bad gateway</html>"},
			code: adapter.Transient, contains: []string{"the endpoint failed (HTTP 502"}},
		{name: "404 without API error", rt: fakeTransport{status: 404, header: http.Header{"Content-Type": {"text/html"}}, body: "<html>not here</html>"},
			code: adapter.InvalidConfig, field: "endpoint", contains: []string{"endpoint"}},
		{name: "401 without API error", rt: fakeTransport{status: 401, header: http.Header{}, body: ""},
			code: adapter.AccessDenied},
		{name: "429 without API error", rt: fakeTransport{status: 429, header: http.Header{}, body: ""},
			code: adapter.RateLimited},
		{name: "connection refused", rt: fakeTransport{err: errors.New("dial tcp 127.0.0.1:1: connect: connection refused")},
			code: adapter.Transient, contains: []string{"could not be reached"}},
		{name: "request bound exceeded twice", rt: fakeTransport{err: requestTimeout{after: 5 * time.Second, endpoint: "https://api.example.test/v1", resent: true}},
			code: adapter.Transient, contains: []string{"the Hetzner Cloud API at https://api.example.test/v1 did not answer within 5s, nor when the request was sent once more"}},
		{name: "unresolvable token", rt: fakeTransport{err: adapter.Errorf(adapter.InvalidConfig, "token: secret reference env://NOPE: environment variable NOPE is not set").WithField("token")},
			code: adapter.InvalidConfig, field: "token", contains: []string{"env://NOPE"}},
		{name: "caller canceled", rt: fakeTransport{status: 200, header: jsonHeader(), body: `{}`},
			ctx: func() context.Context {
				ctx, cancel := context.WithCancel(context.Background())
				cancel()
				return ctx
			},
			code: adapter.Transient, contains: []string{"canceled"}},
	}
	covered := map[adapter.Code]bool{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := context.Background()
			if tt.ctx != nil {
				ctx = tt.ctx()
			}
			raw := apiErrorFrom(t, ctx, tt.rt)
			got := classify(raw)
			checkClassified(t, got, tt.code, tt.field, tt.contains)
			if ra := adapter.RetryAfterOf(got); ra != tt.retryAfter {
				t.Errorf("RetryAfter = %s, want %s", ra, tt.retryAfter)
			}
			if strings.Contains(got.Error(), "SENTINEL-BODY") {
				t.Errorf("message %q repeats the request body", got)
			}
			if silent := strings.HasPrefix(tt.name, "request bound"); adapter.NoAnswer(got) != silent {
				t.Errorf("NoAnswer = %t, want %t: only a spent request bound is a silence", !silent, silent)
			}
			if tt.ctx != nil && !errors.Is(got, context.Canceled) {
				t.Errorf("a canceled call must keep context.Canceled in its chain: %v", got)
			}
			covered[tt.code] = true
		})
	}

	// Errors that do not come from a response.
	t.Run("hcloud-go argument check", func(t *testing.T) {
		c := hcloud.NewClient(hcloud.WithHTTPClient(&http.Client{Transport: fakeTransport{err: errors.New("must not be called")}}))
		_, _, err := c.Server.Create(context.Background(), hcloud.ServerCreateOpts{})
		checkClassified(t, classify(err), adapter.InvalidInput, "", nil)
		covered[adapter.InvalidInput] = true
	})
	t.Run("failed action", func(t *testing.T) {
		a := &hcloud.Action{ID: 7, Status: hcloud.ActionStatusError, ErrorCode: "action_failed", ErrorMessage: "poweron failed"}
		checkClassified(t, classify(a.Error()), adapter.Transient, "", []string{"poweron failed"})
	})
	t.Run("failed action with a known code", func(t *testing.T) {
		a := &hcloud.Action{ID: 8, Status: hcloud.ActionStatusError, ErrorCode: "server_not_stopped", ErrorMessage: "server is running"}
		checkClassified(t, classify(a.Error()), adapter.InvalidState, "", nil)
	})
	t.Run("nil", func(t *testing.T) {
		if classify(nil) != nil {
			t.Error("classify(nil) must be nil")
		}
	})

	for _, c := range adapter.Codes {
		if !covered[c] {
			t.Errorf("no case classifies into %s", c)
		}
	}
}

func checkClassified(t *testing.T, err error, code adapter.Code, field string, contains []string) {
	t.Helper()
	var e *adapter.Error
	if !errors.As(err, &e) {
		t.Fatalf("classify returned %T %v, want *adapter.Error", err, err)
	}
	if e.Code != code {
		t.Errorf("code = %s, want %s (message %q)", e.Code, code, e.Message)
	}
	if e.Field != field {
		t.Errorf("field = %q, want %q", e.Field, field)
	}
	for _, s := range contains {
		if !strings.Contains(e.Message, s) {
			t.Errorf("message %q does not mention %q", e.Message, s)
		}
	}
}

func TestRetryAfterPrefersRetryAfterHeader(t *testing.T) {
	h := http.Header{"Retry-After": {"7"}, "RateLimit-Reset": {"1"}}
	if got := retryAfter(h, time.Unix(0, 0)); got != 7*time.Second {
		t.Errorf("retryAfter = %s, want 7s", got)
	}
	if got := retryAfter(http.Header{}, time.Unix(0, 0)); got != 0 {
		t.Errorf("retryAfter without headers = %s, want 0", got)
	}
}
