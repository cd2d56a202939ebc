package hcloud

import (
	"context"
	"errors"
	"io"
	"net/http"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
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
			err := adapter.Retry(ctxT(t), instantClock{}, adapter.DefaultBackoff, "read", func(ctx context.Context) error {
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

func TestDeleteAndPowerRefuseUnmarked(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	raw := e.AddServer(emu.Server{Name: "hand-made"})
	id := strconv.FormatInt(raw, 10)
	a := newTestAccount(t, endpoint)
	_, errUpdate := a.Update(ctxT(t), id, adapter.UpdateRequest{Labels: map[string]string{"x": "y"}})
	for what, err := range map[string]error{
		"delete":    a.Delete(ctxT(t), id),
		"power off": a.Power(ctxT(t), id, adapter.PowerOff),
		"update":    errUpdate,
	} {
		if !adapter.Is(err, adapter.AccessDenied) {
			t.Errorf("%s: %v, want AccessDenied", what, err)
			continue
		}
		for _, s := range []string{id, `"hand-made"`, "import"} {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s: %q does not mention %s", what, err, s)
			}
		}
	}
	if s, ok := e.Server(raw); !ok || s.Status != "running" || len(s.Labels) != 0 {
		t.Errorf("the unmarked server was touched: %+v", s)
	}
	if ms, err := a.List(ctxT(t)); err != nil || len(ms) != 0 {
		t.Errorf("List = %v, %v; want no managed machines", ms, err)
	}
}

func TestUpdateMarksAnImportedServer(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	raw := e.AddServer(emu.Server{Name: "imported", Labels: map[string]string{"team": "a"}})
	id := strconv.FormatInt(raw, 10)
	a := newTestAccount(t, endpoint)
	mark := adapter.Mark{Key: testCall("imported").IdempotencyKey, Fingerprint: adapter.Fingerprint(testRequest("imported"))}
	answered, err := a.Update(ctxT(t), id, adapter.UpdateRequest{Mark: &mark})
	if err != nil {
		t.Fatal(err)
	}
	m, err := a.Get(ctxT(t), id)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(answered, m) {
		t.Errorf("the update answered %+v, a read shows %+v", answered, m)
	}
	if !m.Managed || m.Key != mark.Key || m.Fingerprint != mark.Fingerprint || m.Labels["team"] != "a" {
		t.Errorf("after marking: %+v", m)
	}
	if ms, err := a.List(ctxT(t)); err != nil || len(ms) != 1 || ms[0].ID != id {
		t.Errorf("List = %v, %v; want the marked server", ms, err)
	}
	name := "renamed"
	if _, err := a.Update(ctxT(t), id, adapter.UpdateRequest{Name: &name, Labels: map[string]string{"team": "b"}}); err != nil {
		t.Fatal(err)
	}
	s, _ := e.Server(raw)
	if s.Name != "renamed" || s.Labels["team"] != "b" || s.Labels[labelKey] != mark.Key || s.Labels[labelManaged] != "true" {
		t.Errorf("after update: %+v", s)
	}
	puts := e.Stats()["PUT /servers/{id}"]
	if _, err := a.Update(ctxT(t), id, adapter.UpdateRequest{Name: &name, Labels: map[string]string{"team": "b"}}); err != nil {
		t.Fatal(err)
	}
	if e.Stats()["PUT /servers/{id}"] != puts {
		t.Error("an update that changes nothing still called the API")
	}
	_, err = a.Update(ctxT(t), id, adapter.UpdateRequest{Labels: map[string]string{labelKey: "forged"}})
	if !adapter.Is(err, adapter.InvalidInput) {
		t.Errorf("forging a mark: %v, want InvalidInput", err)
	}
}

// TestUpdateFromTheCallersRead: given the machine the caller has just read,
// an update is its one PUT, and answers with the server the PUT returned; an
// update that would change nothing sends nothing.
func TestUpdateFromTheCallersRead(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	a := newTestAccount(t, endpoint)
	created, err := a.Create(ctxT(t), testCall("web-1"), testRequest("web-1"))
	if err != nil {
		t.Fatal(err)
	}
	cur, err := a.Get(ctxT(t), created.ID)
	if err != nil {
		t.Fatal(err)
	}
	e.ResetStats()
	name := "web-2"
	mark := adapter.Mark{Key: testCall(name).IdempotencyKey, Fingerprint: cur.Fingerprint}
	got, err := a.Update(ctxT(t), cur.ID, adapter.UpdateRequest{Name: &name, Labels: map[string]string{"env": "prod"}, Mark: &mark, Current: &cur})
	if err != nil {
		t.Fatal(err)
	}
	if stats := e.Stats(); stats["PUT /servers/{id}"] != 1 || len(stats) != 1 {
		t.Errorf("an update from the caller's read sent %v, want one PUT alone", stats)
	}
	s, _ := e.Server(mustID(t, cur.ID))
	if got.Name != "web-2" || s.Name != "web-2" || got.Labels["env"] != "prod" || s.Labels["env"] != "prod" ||
		got.Key != mark.Key || s.Labels[labelKey] != mark.Key || got.Claim != cur.Claim || !got.Managed {
		t.Errorf("update answered %+v; the server is %+v", got, s)
	}
	e.ResetStats()
	again, err := a.Update(ctxT(t), cur.ID, adapter.UpdateRequest{Name: &name, Labels: map[string]string{"env": "prod"}, Mark: &mark, Current: &got})
	if err != nil || len(e.Stats()) != 0 || !reflect.DeepEqual(again, got) {
		t.Errorf("an update that changes nothing: %v, sent %v, answered %+v", err, e.Stats(), again)
	}
}

func TestDeleteReturnsOnceAccepted(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{ActionPolls: 3})
	a := newTestAccount(t, endpoint)
	m, err := a.Create(ctxT(t), testCall("web-1"), testRequest("web-1"))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Delete(ctxT(t), m.ID); err != nil {
		t.Fatal(err)
	}
	got, err := a.Get(ctxT(t), m.ID)
	switch {
	case adapter.IsNotFound(err):
	case err != nil:
		t.Fatal(err)
	case got.State != adapter.StateDeleting:
		t.Errorf("right after Delete: state %s, want deleting (still present)", got.State)
	}
	// A second Delete while deleting is accepted; once gone it is NotFound.
	if err := a.Delete(ctxT(t), m.ID); err != nil && !adapter.IsNotFound(err) {
		t.Errorf("second delete: %v", err)
	}
	for range 10 {
		if _, err = a.Get(ctxT(t), m.ID); adapter.IsNotFound(err) {
			break
		}
	}
	if !adapter.IsNotFound(err) {
		t.Fatalf("server still there after polls: %v", err)
	}
	if err := a.Delete(ctxT(t), m.ID); !adapter.IsNotFound(err) {
		t.Errorf("delete of a gone server: %v, want NotFound", err)
	}
	if len(e.Servers()) != 0 {
		t.Errorf("emulator still holds %v", e.Servers())
	}
}

func TestPowerWaitsForTheAction(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{ActionPolls: 3})
	a := newTestAccount(t, endpoint)
	m, err := a.Create(ctxT(t), testCall("web-1"), testRequest("web-1"))
	if err != nil {
		t.Fatal(err)
	}
	raw := mustID(t, m.ID)
	for range 10 {
		if s, _ := e.Server(raw); s.Status == "running" {
			break
		}
		_, _ = a.Get(ctxT(t), m.ID)
	}
	if err := a.Power(ctxT(t), m.ID, adapter.PowerOff); err != nil {
		t.Fatal(err)
	}
	if s, _ := e.Server(raw); s.Status != "off" {
		t.Errorf("after Power(off) returned: status %q, want off", s.Status)
	}
	if err := a.Power(ctxT(t), m.ID, adapter.PowerOn); err != nil {
		t.Fatal(err)
	}
	if s, _ := e.Server(raw); s.Status != "running" {
		t.Errorf("after Power(on) returned: status %q, want running", s.Status)
	}
	e.FailNextAction("stop_server", 1, "action_failed", "the host did not answer")
	err = a.Power(ctxT(t), m.ID, adapter.PowerOff)
	if err == nil || !strings.Contains(err.Error(), "the host did not answer") {
		t.Errorf("a failed action: %v, want its message", err)
	}
}

func TestPowerHonoursTheContext(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{ActionPolls: 1_000_000})
	id := strconv.FormatInt(e.AddServer(emu.Server{Name: "slow", Labels: map[string]string{labelManaged: "true", labelKey: "k", labelFingerprint: "f"}}), 10)
	a := newTestAccountWith(t, testSettings(endpoint), adapter.Env{
		Secrets: adapter.SecretResolver{Provider: map[string]string{"hcloud": testToken}}, Clock: adapter.RealClock{},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	err := a.Power(ctx, id, adapter.PowerOff)
	if !adapter.Is(err, adapter.Transient) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want Transient wrapping the deadline", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("Power returned %s after its deadline", took)
	}
}

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
