package hcloud

import (
	"context"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/adaptertest"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

func TestStateMapping(t *testing.T) {
	tests := []struct {
		status  hcloud.ServerStatus
		address bool
		want    adapter.State
	}{
		{"initializing", true, adapter.StatePending},
		{"starting", true, adapter.StatePending},
		{"running", true, adapter.StateRunning},
		{"running", false, adapter.StatePending},
		{"stopping", true, adapter.StateRunning},
		{"off", true, adapter.StateStopped},
		{"deleting", true, adapter.StateDeleting},
		{"migrating", true, adapter.StatePending},
		{"rebuilding", true, adapter.StatePending},
		{"unknown", true, adapter.StateUnknown},
		{"something-new", true, adapter.StateUnknown},
	}
	for _, tt := range tests {
		if got := stateOf(tt.status, tt.address); got != tt.want {
			t.Errorf("stateOf(%s, address %t) = %s, want %s", tt.status, tt.address, got, tt.want)
		}
	}
}

func TestGetReadsStatusesThroughTheAPI(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	id := e.AddServer(emu.Server{Name: "seeded", Labels: map[string]string{"team": "a"}})
	a := newTestAccount(t, endpoint)
	for status, want := range map[string]adapter.State{
		"running": adapter.StateRunning, "off": adapter.StateStopped, "stopping": adapter.StateRunning,
		"starting": adapter.StatePending, "migrating": adapter.StatePending, "unknown": adapter.StateUnknown,
	} {
		e.SetServerStatus(id, status)
		m, err := a.Get(ctxT(t), strconv.FormatInt(id, 10))
		if err != nil {
			t.Fatal(err)
		}
		if m.State != want || m.RawState != status {
			t.Errorf("status %s: state %s raw %q, want %s", status, m.State, m.RawState, want)
		}
	}
	m, _ := a.Get(ctxT(t), strconv.FormatInt(id, 10))
	if m.Managed || m.Key != "" || m.Labels["team"] != "a" || m.Name != "seeded" || m.OfferID != "cx22" ||
		m.Image != "ubuntu-24.04" || m.Location != "fsn1" || m.IPv4 == "" || m.IPv6 == "" || m.CreatedAt.IsZero() {
		t.Errorf("machine = %+v", m)
	}
	if !strings.HasPrefix(m.IPv6, "2001:db8:") || !strings.HasSuffix(m.IPv6, "::1") {
		t.Errorf("ipv6 %q, want the first address of the server's /64 in 2001:db8::/32", m.IPv6)
	}
}

func TestGetOnlyNotFoundIsAbsence(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	id := strconv.FormatInt(e.AddServer(emu.Server{Name: "seeded"}), 10)
	a := newTestAccount(t, endpoint)

	if _, err := a.Get(ctxT(t), "4199999"); !adapter.IsNotFound(err) {
		t.Errorf("unknown id: %v, want NotFound", err)
	}
	if _, err := a.Get(ctxT(t), "web-1"); !adapter.Is(err, adapter.InvalidInput) {
		t.Errorf("malformed id: %v, want InvalidInput", err)
	}
	for _, f := range []struct {
		status int
		code   string
		want   adapter.Code
	}{
		{503, "unavailable", adapter.Transient},
		{500, "server_error", adapter.Transient},
		{504, "timeout", adapter.Transient},
		{401, "unauthorized", adapter.AccessDenied},
		{423, "locked", adapter.Transient},
		{429, "rate_limit_exceeded", adapter.RateLimited},
	} {
		e.FailNext("GET", "/servers/{id}", 1, f.status, f.code)
		_, err := a.Get(ctxT(t), id)
		if !adapter.Is(err, f.want) {
			t.Errorf("%d %s: %v, want %s", f.status, f.code, err, f.want)
		}
	}
}

// TestOneRetryLayer: every failure hcloud-go's own retry would resend (a
// bad gateway, a gateway timeout, a rate limit, a conflict) and those it
// would not (503) reach the contract after one request, so each attempt of
// adapter.Retry, on the injected clock, is exactly one request.
func TestOneRetryLayer(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	id := strconv.FormatInt(e.AddServer(emu.Server{Name: "seeded"}), 10)
	a := newTestAccount(t, endpoint)
	for _, f := range []struct {
		status int
		code   string
	}{
		{502, "bad_gateway"}, {503, "unavailable"}, {504, "timeout"}, {429, "rate_limit_exceeded"}, {409, "conflict"},
	} {
		t.Run(f.code, func(t *testing.T) {
			e.ResetStats()
			e.FailNext("GET", "/servers/{id}", 2, f.status, f.code)
			if _, err := a.Get(ctxT(t), id); err == nil {
				t.Fatalf("%d %s answered once: Get succeeded, so the failure was retried below the contract", f.status, f.code)
			}
			if got := e.Stats()["GET /servers/{id}"]; got != 1 {
				t.Fatalf("one Get sent %d requests after a %d %s, want 1", got, f.status, f.code)
			}
			attempts := 0
			err := adapter.Retry(ctxT(t), adaptertest.InstantClock{}, adapter.DefaultBackoff, "read", func(ctx context.Context) error {
				attempts++
				_, err := a.Get(ctx, id)
				return err
			})
			if err != nil {
				t.Fatalf("the contract's retry did not ride out the second failure: %v", err)
			}
			if got := e.Stats()["GET /servers/{id}"]; attempts != 2 || got != 3 {
				t.Errorf("%d contract attempt(s) sent %d requests after the first Get, want 2 and 2", attempts, got-1)
			}
		})
	}
}

func TestUnauthorizedIsAccessDenied(t *testing.T) {
	_, endpoint := startEmulator(t, emu.Options{})
	a := newTestAccountWith(t, testSettings(endpoint), testEnv("wrong-token-77"))
	_, err := a.Get(ctxT(t), "4200001")
	if !adapter.Is(err, adapter.AccessDenied) || adapter.FieldOf(err) != "token" {
		t.Fatalf("got %v, want AccessDenied on token", err)
	}
	if strings.Contains(err.Error(), "wrong-token-77") {
		t.Errorf("the error repeats the token: %q", err)
	}
}

func TestRateLimitCarriesRetryAfter(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	a := newTestAccount(t, endpoint)
	e.SetRateLimit(2, time.Hour)
	var err error
	for range 3 {
		if _, err = a.Get(ctxT(t), "4200001"); adapter.Is(err, adapter.RateLimited) {
			break
		}
	}
	if !adapter.Is(err, adapter.RateLimited) {
		t.Fatalf("got %v, want RateLimited", err)
	}
	// Two requests per hour refill one every 30 minutes.
	if ra := adapter.RetryAfterOf(err); ra < 29*time.Minute || ra > 31*time.Minute {
		t.Errorf("RetryAfter = %s, want about 30m", ra)
	}
}

func TestServiceUnavailableIsTransient(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	a := newTestAccount(t, endpoint)
	// hcloud-go does not retry a 503 itself: one failure reaches the adapter.
	e.FailNext("GET", "/server_types", 1, 503, "unavailable")
	_, err := a.ListOffers(ctxT(t), adapter.Query{})
	if !adapter.Is(err, adapter.Transient) {
		t.Fatalf("got %v, want Transient", err)
	}
	if _, err := a.ListOffers(ctxT(t), adapter.Query{}); err != nil {
		t.Errorf("a failed catalog load must not be cached: %v", err)
	}
}

// TestUpdateFromTheCallersRead: given the machine the caller has just read,
// an update is its one PUT, and answers with the server the PUT returned; an
// update that would change nothing sends nothing.
func TestListFollowsEveryPage(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	a := newTestAccount(t, endpoint)
	for i := range 5 {
		n := "m-" + strconv.Itoa(i)
		if _, err := a.Create(ctxT(t), testCall(n), testRequest(n)); err != nil {
			t.Fatal(err)
		}
	}
	e.AddServer(emu.Server{Name: "u-1"})
	e.AddServer(emu.Server{Name: "u-2"})
	e.SetMaxPageSize(2)
	e.ResetStats()
	ms, err := a.List(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 5 {
		t.Errorf("List returned %d machines, want the 5 managed ones", len(ms))
	}
	for _, m := range ms {
		if !m.Managed || !strings.HasPrefix(m.Name, "m-") {
			t.Errorf("listed %+v", m)
		}
	}
	if got := e.Stats()["GET /servers"]; got != 3 {
		t.Errorf("GET /servers called %d times, want 3 pages", got)
	}
}

func TestListFailingMidwayIsAnError(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	a := newTestAccount(t, endpoint, func(o *options) {
		o.transport = roundTripFunc(func(r *http.Request) (*http.Response, error) {
			// Pages are read concurrently: fail page 2 itself, not
			// whichever request reaches the emulator next.
			if r.Method == http.MethodGet && r.URL.Path == "/v1/servers" && r.URL.Query().Get("page") == "2" {
				return &http.Response{StatusCode: 503, Status: "503 Service Unavailable", Request: r,
					Header: http.Header{"Content-Type": {"application/json"}},
					Body:   io.NopCloser(strings.NewReader(`{"error":{"code":"unavailable","message":"injected failure: unavailable","details":{}}}`))}, nil
			}
			return http.DefaultTransport.RoundTrip(r)
		})
	})
	for i := range 5 {
		n := "m-" + strconv.Itoa(i)
		if _, err := a.Create(ctxT(t), testCall(n), testRequest(n)); err != nil {
			t.Fatal(err)
		}
	}
	e.SetMaxPageSize(2)
	ms, err := a.List(ctxT(t))
	if err == nil || ms != nil {
		t.Fatalf("List = %d machines, %v; want an error and no list", len(ms), err)
	}
	if !adapter.Is(err, adapter.Transient) || !strings.Contains(err.Error(), "page 2") {
		t.Errorf("got %v, want Transient naming page 2", err)
	}
}

// A base URL without /v1 answers every path with not_found: that must read
// as a wrong endpoint, never as the server being gone.
func TestWrongEndpointIsNeverAbsence(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	id := strconv.FormatInt(e.AddServer(emu.Server{Name: "seeded"}), 10)
	a := newTestAccount(t, strings.TrimSuffix(endpoint, "/v1"))
	_, err := a.Get(ctxT(t), id)
	checkClassified(t, err, adapter.InvalidConfig, "endpoint", []string{"base URL"})
	_, err = a.List(ctxT(t))
	checkClassified(t, err, adapter.InvalidConfig, "endpoint", nil)
	checkClassified(t, a.Check(ctxT(t)), adapter.InvalidConfig, "endpoint", nil)

	e.ResetStats()
	good := newTestAccount(t, endpoint)
	for range 3 {
		if _, err := good.Get(ctxT(t), "4299999"); !adapter.IsNotFound(err) {
			t.Fatalf("a missing server on the right endpoint: %v, want NotFound", err)
		}
	}
	if got := e.Stats()["GET /locations"]; got != 1 {
		t.Errorf("the endpoint was confirmed %d times, want once per account", got)
	}
}
