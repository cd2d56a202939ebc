package robot

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// TestClassify sends each error answer through the real client, shaped as
// the spec's Error schema, and checks its one code, field and retry hint;
// the last assertion is that every adapter code is covered.
func TestClassify(t *testing.T) {
	body := func(status int, code, msg, extra string) string {
		return `{"error":{"status":` + itoa(status) + `,"code":"` + code + `","message":"` + msg + `"` + extra + `}}`
	}
	tests := []struct {
		name       string
		status     int
		body       string
		header     http.Header
		code       adapter.Code
		field      string
		retryAfter time.Duration
	}{
		{"unauthorized", 401, body(401, "UNAUTHORIZED", "Unauthorized", ""), nil, adapter.AccessDenied, "user", 0},
		{"rate limit", 403, body(403, "RATE_LIMIT_EXCEEDED", "rate limit exceeded", `,"max_request":200,"interval":3600`), nil, adapter.RateLimited, "", 18 * time.Second},
		{"rate limit with Retry-After", 403, body(403, "RATE_LIMIT_EXCEEDED", "rate limit exceeded", `,"max_request":200,"interval":3600`), http.Header{"Retry-After": {"7"}}, adapter.RateLimited, "", 7 * time.Second},
		{"invalid input names the field", 400, body(400, "INVALID_INPUT", "invalid input", `,"missing":null,"invalid":["server_name"]`), nil, adapter.InvalidInput, "name", 0},
		{"missing input names the field", 400, body(400, "INVALID_INPUT", "invalid input", `,"missing":["product_id"],"invalid":null`), nil, adapter.InvalidInput, "offer_id", 0},
		{"server not found", 404, body(404, "SERVER_NOT_FOUND", "Server not found", ""), nil, adapter.NotFound, "", 0},
		// Another thing's absence in the answer about a server, or a
		// failed webservice's, is not the server's.
		{"another thing not found", 404, body(404, "IP_NOT_FOUND", "IP not found", ""), nil, adapter.Transient, "", 0},
		{"server not found from a failed webservice", 500, body(500, "SERVER_NOT_FOUND", "Server not found", ""), nil, adapter.Transient, "", 0},
		// Robot's answer for a URL it has no route for: a wrong endpoint.
		{"bare not found is the endpoint", 404, body(404, "NOT_FOUND", "Not Found", ""), nil, adapter.InvalidConfig, "endpoint", 0},
		{"manual reset active", 409, body(409, "RESET_MANUAL_ACTIVE", "There is already a running manual reset", ""), nil, adapter.Transient, "", 0},
		{"boot blocked", 409, body(409, "BOOT_BLOCKED", "Boot configuration blocked", ""), nil, adapter.InvalidState, "", 0},
		{"conflict", 409, body(409, "CONFLICT", "The server is already cancelled", ""), nil, adapter.Conflict, "", 0},
		{"wol not available", 404, body(404, "WOL_NOT_AVAILABLE", "Wake On LAN not available", ""), nil, adapter.Unsupported, "", 0},
		{"reset not available", 404, body(404, "RESET_NOT_AVAILABLE", "Reset not available", ""), nil, adapter.Unsupported, "", 0},
		{"limit exceeded", 409, body(409, "LIMIT_EXCEEDED", "limit exceeded", ""), nil, adapter.QuotaExceeded, "", 0},
		{"reset failed", 500, body(500, "RESET_FAILED", "Resetting failed due to an internal error", ""), nil, adapter.Transient, "", 0},
		{"wol failed", 500, body(500, "WOL_FAILED", "Sending Wake On LAN packet failed", ""), nil, adapter.Transient, "", 0},
		{"internal error", 500, body(500, "INTERNAL_ERROR", "internal error", ""), nil, adapter.Transient, "", 0},
		{"maintenance", 503, `<html>maintenance</html>`, nil, adapter.Transient, "", 0},
		{"unknown code", 409, body(409, "SOMETHING_NEW", "new", ""), nil, adapter.Transient, "", 0},
		{"conflict without a Robot error", 409, ``, nil, adapter.Conflict, "", 0},
		{"unknown code, odd status", 418, body(418, "SOMETHING_NEW", "new", ""), nil, adapter.Transient, "", 0},
		{"404 without a Robot error is a wrong endpoint", 404, `not found`, nil, adapter.InvalidConfig, "endpoint", 0},
		{"bare 403 from a proxy", 403, ``, nil, adapter.AccessDenied, "user", 0},
	}
	seen := map[adapter.Code]bool{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := testAccount(t, &fake{failRoute: "GET /server", failN: 1, failStatus: tt.status, failBody: tt.body}, nil, nil)
			if tt.header != nil {
				a.c.HTTP.Transport = headerTransport{a.c.HTTP.Transport, tt.header}
			}
			_, err := a.Get(context.Background(), "321")
			var e *adapter.Error
			if !errors.As(err, &e) {
				t.Fatalf("Get: %v is not classified", err)
			}
			if e.Code != tt.code || e.Field != tt.field || e.RetryAfter != tt.retryAfter {
				t.Errorf("got code %s field %q retry-after %s, want %s %q %s (%v)", e.Code, e.Field, e.RetryAfter, tt.code, tt.field, tt.retryAfter, err)
			}
			seen[e.Code] = true
		})
	}
	// The codes only the client itself makes: a secret that cannot be
	// resolved, a request that ran out of its bound.
	seen[adapter.CodeOf(classify(&adapter.Error{Code: adapter.InvalidConfig}))] = true
	// Elsewhere, as for an order's transaction, *_NOT_FOUND is absence.
	if c := adapter.CodeOf(classify(&apiError{Status: 404, Code: "TRANSACTION_NOT_FOUND"})); c != adapter.NotFound {
		t.Errorf("TRANSACTION_NOT_FOUND: %s, want NotFound", c)
	}
	for _, c := range adapter.Codes {
		if !seen[c] {
			t.Errorf("no case classifies as %s", c)
		}
	}
}

// headerTransport adds headers to every answer, as a proxy would.
type headerTransport struct {
	base http.RoundTripper
	h    http.Header
}

func (t headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if t.base == nil {
		t.base = http.DefaultTransport
	}
	resp, err := t.base.RoundTrip(r)
	if err == nil {
		for k, v := range t.h {
			resp.Header[k] = v
		}
	}
	return resp, err
}

func itoa(n int) string { return strconv.Itoa(n) }

func TestClassifyTransport(t *testing.T) {
	// A request past its bound is Transient and says which route.
	a := testAccount(t, newFake(), nil, nil)
	a.c.Timeout = time.Nanosecond
	_, err := a.Get(context.Background(), "321")
	if !adapter.Is(err, adapter.Transient) || !strings.Contains(err.Error(), "/server/{n}") || adapter.NoAnswer(err) {
		t.Errorf("bound: %v", err)
	}
	// A cancelled caller is Transient too, never absence.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = a.Get(ctx, "321")
	if !adapter.Is(err, adapter.Transient) {
		t.Errorf("canceled: %v", err)
	}
	if !slices.Contains(adapter.Codes, adapter.CodeOf(err)) {
		t.Errorf("code %q is not a contract code", adapter.CodeOf(err))
	}
}

// TestIsCodeOnlyOnARefusal: a code the calls read as "none" (no servers, no
// transaction, no keys) counts only in a 4xx answer; the same code in a 5xx
// says nothing of what exists, and taking it for "none" would, on the order
// path, buy a second server.
func TestIsCodeOnlyOnARefusal(t *testing.T) {
	for _, tc := range []struct {
		status int
		want   bool
	}{{404, true}, {400, true}, {409, true}, {500, false}, {502, false}, {503, false}, {200, false}} {
		for _, code := range []string{"NOT_FOUND", "TRANSACTION_NOT_FOUND", "SERVER_NOT_FOUND"} {
			if got := isCode(&apiError{Status: tc.status, Code: code}, code); got != tc.want {
				t.Errorf("isCode(HTTP %d %s) = %t, want %t", tc.status, code, got, tc.want)
			}
		}
	}
}
