package hcloud

import (
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

func TestCreateMarksInTheCreateCall(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	a := newTestAccount(t, endpoint)
	req, call := testRequest("web-1"), testCall("web-1")
	m, err := a.Create(ctxT(t), call, req)
	if err != nil {
		t.Fatal(err)
	}
	servers := e.Servers()
	if len(servers) != 1 {
		t.Fatalf("emulator holds %d servers, want 1", len(servers))
	}
	s := servers[0]
	withLocation := req
	withLocation.Location = "fsn1"
	want := map[string]string{
		"env":                                "test",
		"compute.seedcompute.io/managed":     "true",
		"compute.seedcompute.io/key":         call.IdempotencyKey,
		"compute.seedcompute.io/fingerprint": adapter.Fingerprint(withLocation),
	}
	for k, v := range want {
		if s.Labels[k] != v {
			t.Errorf("label %s = %q, want %q", k, s.Labels[k], v)
		}
	}
	if s.ServerType != "cx22" || s.Location != "fsn1" || s.Image != "ubuntu-24.04" || s.UserData != req.UserData {
		t.Errorf("server = %+v, want cx22 in fsn1 from ubuntu-24.04 with the user data", s)
	}
	if m.ID != strconv.FormatInt(s.ID, 10) || !m.Managed || m.Key != call.IdempotencyKey || m.Labels["env"] != "test" || len(m.Labels) != 1 {
		t.Errorf("machine = %+v", m)
	}
	// Create returns at once: the server is still being set up.
	if m.State != adapter.StatePending {
		t.Errorf("state right after create = %s (%s), want pending", m.State, m.RawState)
	}
	if got := e.Stats()["POST /servers"]; got != 1 {
		t.Errorf("POST /servers called %d times, want 1", got)
	}
}

func TestCreatePowerOff(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{ActionPolls: -1})
	a := newTestAccount(t, endpoint)
	req := testRequest("cold-1")
	req.PowerOn = false
	m, err := a.Create(ctxT(t), testCall("cold-1"), req)
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := e.Server(mustID(t, m.ID)); s.Status != "off" {
		t.Errorf("status = %q, want off: start_after_create must follow PowerOn", s.Status)
	}
}

func TestCreateAfterDroppedResponse(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	a := newTestAccount(t, endpoint)
	e.DropNext("POST", "/servers", 1)
	m, err := a.Create(ctxT(t), testCall("web-1"), testRequest("web-1"))
	if err != nil {
		t.Fatalf("Create after a dropped response: %v", err)
	}
	servers := e.Servers()
	if len(servers) != 1 || m.ID != strconv.FormatInt(servers[0].ID, 10) {
		t.Fatalf("got machine %s, emulator holds %v; want exactly the one server", m.ID, servers)
	}
	again, err := a.Create(ctxT(t), testCall("web-1"), testRequest("web-1"))
	if err != nil || again.ID != m.ID {
		t.Fatalf("a second create returned %s, %v; want %s", again.ID, err, m.ID)
	}
	if n := len(e.Servers()); n != 1 {
		t.Errorf("emulator holds %d servers, want 1", n)
	}
}

// A POST whose answer did not come within its bound is not sent again by
// the transport: the look-up by key after the failure finds the server the
// committed attempt made, carrying this create's own claim, which is
// neither a second server nor an adoption.
func TestCreateWhoseAnswerWasLostFindsItsServer(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	var posts atomic.Int32
	a := newTestAccount(t, endpoint, func(o *options) {
		o.transport = roundTripFunc(func(r *http.Request) (*http.Response, error) {
			resp, err := http.DefaultTransport.RoundTrip(r)
			if err == nil && r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/servers") && posts.Add(1) == 1 {
				resp.Body.Close()
				return nil, requestTimeout{after: o.requestTimeout}
			}
			return resp, err
		})
	})
	m, err := a.Create(ctxT(t), testCall("web-1"), testRequest("web-1"))
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	if posts.Load() != 1 {
		t.Errorf("posted %d times, want 1", posts.Load())
	}
	if m.Adopted {
		t.Errorf("the server this very create made is reported as adopted")
	}
	servers := e.Servers()
	if len(servers) != 1 || m.ID != strconv.FormatInt(servers[0].ID, 10) {
		t.Fatalf("got machine %s, emulator holds %v", m.ID, servers)
	}
}

func TestConcurrentCreatesMakeOneServer(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	a := newTestAccount(t, endpoint)
	const n = 8
	ids := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			m, err := a.Create(ctxT(t), testCall("web-1"), testRequest("web-1"))
			ids[i], errs[i] = m.ID, err
		})
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Errorf("create %d: %v", i, errs[i])
		} else if ids[i] != ids[0] {
			t.Errorf("create %d returned %s, create 0 returned %s", i, ids[i], ids[0])
		}
	}
	if got := len(e.Servers()); got != 1 {
		t.Errorf("emulator holds %d servers, want 1", got)
	}
}

func TestCreateNameTakenByUnmarkedServer(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	id := e.AddServer(emu.Server{Name: "web-1"})
	a := newTestAccount(t, endpoint)
	_, err := a.Create(ctxT(t), testCall("web-1"), testRequest("web-1"))
	if !adapter.Is(err, adapter.Conflict) {
		t.Fatalf("got %v, want Conflict", err)
	}
	for _, s := range []string{strconv.FormatInt(id, 10), `"web-1"`, "terraform import", "another name"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("the Conflict %q does not mention %s", err, s)
		}
	}
	if adapter.FieldOf(err) != "name" {
		t.Errorf("field = %q, want name", adapter.FieldOf(err))
	}
	if s, _ := e.Server(id); s.Labels["compute.seedcompute.io/managed"] != "" {
		t.Error("the unmarked server was marked")
	}
}

func TestCreateFingerprintMismatch(t *testing.T) {
	_, endpoint := startEmulator(t, emu.Options{})
	a := newTestAccount(t, endpoint)
	first := testRequest("web-1")
	if _, err := a.Create(ctxT(t), testCall("web-1"), first); err != nil {
		t.Fatal(err)
	}
	second := first
	second.Image = "debian-12"
	_, err := a.Create(ctxT(t), testCall("web-1"), second)
	if !adapter.Is(err, adapter.Conflict) {
		t.Fatalf("got %v, want Conflict", err)
	}
	first.Location, second.Location = "fsn1", "fsn1"
	for _, fp := range []string{adapter.Fingerprint(first), adapter.Fingerprint(second)} {
		if !strings.Contains(err.Error(), fp) {
			t.Errorf("the Conflict %q lacks fingerprint %s", err, fp)
		}
	}
}

func TestCreateRefusesReservedLabels(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	a := newTestAccount(t, endpoint)
	req := testRequest("web-1")
	req.Labels = map[string]string{"compute.seedcompute.io/managed": "false"}
	_, err := a.Create(ctxT(t), testCall("web-1"), req)
	if !adapter.Is(err, adapter.InvalidInput) || adapter.FieldOf(err) != "labels" {
		t.Fatalf("got %v, want InvalidInput on labels", err)
	}
	if len(e.Stats()) != 0 {
		t.Errorf("a refused create called the API: %v", e.Stats())
	}
}

func TestCreateInvalidOfferIsInvalidInput(t *testing.T) {
	_, endpoint := startEmulator(t, emu.Options{})
	a := newTestAccount(t, endpoint)
	req := testRequest("web-1")
	req.OfferID = "cx99"
	_, err := a.Create(ctxT(t), testCall("web-1"), req)
	if !adapter.Is(err, adapter.InvalidInput) {
		t.Fatalf("got %v, want InvalidInput", err)
	}
}

func mustID(t *testing.T, id string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
