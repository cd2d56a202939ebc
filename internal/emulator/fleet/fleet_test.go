package fleet_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/fleet"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/hooks"
)

// server is an API's server: the fleet's part and one field of its own.
type server struct {
	fleet.Machine
	Size string `json:"size"`
}

// stopped is the emulator's clock, in a zone other than UTC.
type stopped struct{ t time.Time }

func (c stopped) Now() time.Time                       { return c.t }
func (c stopped) After(time.Duration) <-chan time.Time { return nil }

var epoch = time.Date(2030, 1, 2, 3, 4, 5, 0, time.FixedZone("east", 2*3600))

// api is a fleet served in the plainest REST shape under /v1, wrapped in
// the faults middleware with an error body of its own, so an answer that
// did not go through the middleware shows.
type api struct {
	*fleet.Fleet[server, *server]
	m *faults.Middleware
}

func newAPI(cfg fleet.Config) api {
	mux := http.NewServeMux()
	m := faults.New(mux, faults.Config{APIPrefix: "/v1", ErrorBody: func(_ int, code, message string) []byte {
		return fmt.Appendf(nil, `{"fault":{"code":%q,"text":%q}}`, code, message)
	}})
	cfg.Clock = stopped{epoch}
	f := fleet.New[server](m, cfg)
	mux.HandleFunc("GET /v1/servers", f.List)
	mux.HandleFunc("GET /v1/servers/{id}", f.Item(f.Show))
	mux.HandleFunc("PATCH /v1/servers/{id}", f.Item(f.Patch))
	mux.HandleFunc("DELETE /v1/servers/{id}", f.Item(f.Remove))
	mux.HandleFunc("POST /v1/servers/{id}/power", f.Item(f.PowerAction))
	return api{f, m}
}

// call serves one request and returns its status and body.
func (a api) call(method, path, body string) (int, string) {
	w := httptest.NewRecorder()
	a.m.ServeHTTP(w, httptest.NewRequest(method, path, strings.NewReader(body)))
	return w.Code, strings.TrimSpace(w.Body.String())
}

// status reads server id once and returns the status it showed.
func (a api) status(t *testing.T, id int) string {
	t.Helper()
	code, body := a.call("GET", fmt.Sprintf("/v1/servers/%d", id), "")
	var got struct{ Server server }
	if err := json.Unmarshal([]byte(body), &got); code != 200 || err != nil {
		t.Fatalf("GET server %d: %d %s", id, code, body)
	}
	return got.Server.Status
}

// TestCreate: each server gets the next id, its own address from
// 198.51.100.0/24, the clock's time in UTC and labels, and reads
// "provisioning" once and then "running"; a test's snapshot settles
// nothing, a seeded server runs at once, and the caller's labels map is
// not the stored one.
func TestCreate(t *testing.T) {
	a := newAPI(fleet.Config{})
	labels := map[string]string{"role": "web"}
	first := a.Create(server{Machine: fleet.Machine{Name: "a", Labels: labels}, Size: "tiny"})
	second := a.Create(server{Machine: fleet.Machine{Name: "b"}})
	labels["role"] = "changed behind the fleet's back"
	docs := netip.MustParsePrefix("198.51.100.0/24")
	for i, s := range []server{first, second} {
		if addr, err := netip.ParseAddr(s.IPv4); err != nil || !docs.Contains(addr) {
			t.Errorf("server %d: address %q, want one of %s", s.ID, s.IPv4, docs)
		}
		if s.ID != 1001+i || s.Status != "provisioning" || !s.Created.Equal(epoch) || s.Created.Location() != time.UTC || s.Labels == nil {
			t.Errorf("created %+v, want id %d, provisioning, created %s in UTC, labels", s, 1001+i, epoch)
		}
	}
	if first.IPv4 == second.IPv4 {
		t.Errorf("two servers share the address %s", first.IPv4)
	}
	if snap := a.Servers(); len(snap) != 2 || snap[0].Status != "provisioning" || a.Servers()[0].Status != "provisioning" {
		t.Errorf("snapshots %+v: a test's look must settle nothing", snap)
	}
	for i, want := range []string{"provisioning", "running", "running"} {
		if got := a.status(t, first.ID); got != want {
			t.Errorf("read %d: %q, want %q", i+1, got, want)
		}
	}
	if got := a.Servers()[0].Labels["role"]; got != "web" {
		t.Errorf("stored label %q: the fleet keeps the caller's map", got)
	}
	seeded := a.Seed(server{Machine: fleet.Machine{Name: "console"}})
	if seeded.ID != 1003 || a.status(t, seeded.ID) != "running" {
		t.Errorf("seeded %+v: want id 1003, running at its first read", seeded)
	}
}

// TestWords: an API's own status words replace the defaults.
func TestWords(t *testing.T) {
	a := newAPI(fleet.Config{Words: fleet.Words{Provisioning: "initializing", Running: "up"}})
	s := a.Create(server{})
	if s.Status != "initializing" || a.status(t, s.ID) != "initializing" || a.status(t, s.ID) != "up" {
		t.Errorf("created %+v: want initializing once, then up", s)
	}
}

// TestServersSorted: the snapshot is in id order, a copy a test may
// change.
func TestServersSorted(t *testing.T) {
	a := newAPI(fleet.Config{})
	for range 20 {
		a.Seed(server{})
	}
	snap := a.Servers()
	for i, s := range snap {
		if s.ID != 1001+i {
			t.Fatalf("snapshot[%d] is server %d, want %d", i, s.ID, 1001+i)
		}
	}
	snap[0].Labels["x"] = "y"
	if got := a.Servers()[0].Labels; len(got) != 0 {
		t.Errorf("a change to the snapshot reached the fleet: %v", got)
	}
}

// TestItemNotFound: an id the fleet does not hold, or not a number, is
// answered 404 in the API's body, the middleware's, naming the API's
// noun; a deleted server is gone at once.
func TestItemNotFound(t *testing.T) {
	a := newAPI(fleet.Config{Noun: "machine"})
	s := a.Seed(server{})
	for _, path := range []string{"/v1/servers/4242", "/v1/servers/abc"} {
		id := strings.TrimPrefix(path, "/v1/servers/")
		want := `{"fault":{"code":"not_found","text":"machine ` + id + ` not found"}}`
		if code, body := a.call("GET", path, ""); code != 404 || body != want {
			t.Errorf("GET %s: %d %s, want 404 %s", path, code, body, want)
		}
	}
	if code, _ := a.call("DELETE", fmt.Sprintf("/v1/servers/%d", s.ID), ""); code != 204 {
		t.Errorf("DELETE: %d, want 204", code)
	}
	if code, _ := a.call("GET", fmt.Sprintf("/v1/servers/%d", s.ID), ""); code != 404 || len(a.Servers()) != 0 {
		t.Errorf("GET after DELETE: %d with %d servers left, want 404 and none", code, len(a.Servers()))
	}
}

// TestList: a label selector selects, pages follow the middleware's page
// size, an empty listing is [] and not null, and every selected server is
// read.
func TestList(t *testing.T) {
	a := newAPI(fleet.Config{})
	if _, body := a.call("GET", "/v1/servers", ""); body != `{"next_page":0,"servers":[]}` {
		t.Errorf("empty listing: %s", body)
	}
	for i := range 5 {
		labels := map[string]string{}
		if i%2 == 0 {
			labels["role"] = "web"
		}
		a.Create(server{Machine: fleet.Machine{Labels: labels}})
	}
	a.m.SetMaxPageSize(2)
	for _, c := range []struct {
		query string
		ids   []int
		next  int
	}{
		{"label=role=web", []int{1001, 1003}, 2},
		{"label=role=web&page=2", []int{1005}, 0},
		{"label=role=db", []int{}, 0},
		{"page=3", []int{1005}, 0},
		{"label=role", []int{1001, 1002}, 2},
	} {
		code, body := a.call("GET", "/v1/servers?"+c.query, "")
		var got struct {
			Servers  []server
			NextPage int `json:"next_page"`
		}
		if err := json.Unmarshal([]byte(body), &got); err != nil || code != 200 {
			t.Fatalf("?%s: %d %s", c.query, code, body)
		}
		ids := []int{}
		for _, s := range got.Servers {
			ids = append(ids, s.ID)
		}
		if fmt.Sprint(ids) != fmt.Sprint(c.ids) || got.NextPage != c.next {
			t.Errorf("?%s: servers %v, next page %d; want %v, %d", c.query, ids, got.NextPage, c.ids, c.next)
		}
	}
	// The first listing read server 1002 (on no page it answered), so
	// it has settled.
	if got := a.status(t, 1002); got != "running" {
		t.Errorf("server 1002 after the listings: %q, want running", got)
	}
}

// TestPatch: a name or labels given replace the server's, what is not
// given stays, a body that is not JSON is refused, and the answer reads
// nothing.
func TestPatch(t *testing.T) {
	a := newAPI(fleet.Config{})
	s := a.Create(server{Machine: fleet.Machine{Name: "a", Labels: map[string]string{"k": "v"}}, Size: "tiny"})
	path := fmt.Sprintf("/v1/servers/%d", s.ID)
	for _, c := range []struct{ body, want string }{
		{`{"name":"b"}`, `"name":"b","status":"provisioning","ipv4":"198.51.100.2","labels":{"k":"v"}`},
		{`{"labels":{}}`, `"name":"b","status":"provisioning","ipv4":"198.51.100.2","labels":{}`},
	} {
		if code, body := a.call("PATCH", path, c.body); code != 200 || !strings.Contains(body, c.want) || !strings.Contains(body, `"size":"tiny"`) {
			t.Errorf("PATCH %s: %d %s, want 200 with %s", c.body, code, body, c.want)
		}
	}
	// A body that is not JSON is refused, as a real API refuses it, and
	// changes nothing.
	if code, body := a.call("PATCH", path, `{"name":"c"`); code != 400 || !strings.Contains(body, `"invalid_input"`) {
		t.Errorf("PATCH with a broken body: %d %s, want 400 invalid_input", code, body)
	}
	if got := a.status(t, s.ID); got != "provisioning" {
		t.Errorf("first read after the patches: %q, want provisioning", got)
	}
}

// TestPower: off goes through stopping, on through starting, each shown
// once; a server already there stays; another action is refused in the
// API's body.
func TestPower(t *testing.T) {
	a := newAPI(fleet.Config{})
	s := a.Seed(server{})
	path := fmt.Sprintf("/v1/servers/%d/power", s.ID)
	for _, c := range []struct{ action, reads string }{
		{"on", "running running"},
		{"off", "stopping off off"},
		{"off", "off"},
		{"on", "starting running running"},
	} {
		if code, body := a.call("POST", path, `{"action":"`+c.action+`"}`); code != 202 {
			t.Fatalf("power %s: %d %s", c.action, code, body)
		}
		for i, want := range strings.Fields(c.reads) {
			if got := a.status(t, s.ID); got != want {
				t.Errorf("power %s, read %d: %q, want %q", c.action, i+1, got, want)
			}
		}
	}
	const want = `{"fault":{"code":"invalid_input","text":"action \"reboot\": want on or off"}}`
	if code, body := a.call("POST", path, `{"action":"reboot"}`); code != 400 || body != want {
		t.Errorf("power reboot: %d %s, want 400 %s", code, body, want)
	}
}

// TestStage: a staged server shows the table's word and keeps it, an
// unaddressed one loses its address, and a situation the table leaves out
// is unsupported, while an unknown id is a plain error.
func TestStage(t *testing.T) {
	a := newAPI(fleet.Config{})
	s := a.Create(server{})
	stage := hooks.New(a.m, hooks.Table{Emulator: "test", Stage: a.Stage(map[string]string{
		hooks.SituationProvisioning: "building", hooks.SituationUnaddressed: "running"})}).Stage
	if raw, err := stage("1001", hooks.SituationProvisioning); err != nil || raw != "building" {
		t.Fatalf("stage provisioning: %q %v", raw, err)
	}
	for i := range 2 {
		if got := a.status(t, s.ID); got != "building" {
			t.Errorf("read %d of the staged server: %q, want building, kept", i+1, got)
		}
	}
	if raw, err := stage("1001", hooks.SituationUnaddressed); err != nil || raw != "running" || a.Servers()[0].IPv4 != "" {
		t.Errorf("stage unaddressed: %q %v, server %+v", raw, err, a.Servers()[0])
	}
	if _, err := stage("1001", hooks.SituationDeleting); !errors.Is(err, errors.ErrUnsupported) {
		t.Errorf("stage deleting, not in the table: %v, want unsupported", err)
	}
	for _, id := range []string{"x", "5"} {
		if _, err := stage(id, hooks.SituationProvisioning); err == nil || errors.Is(err, errors.ErrUnsupported) {
			t.Errorf("stage %s: %v, want a plain error", id, err)
		}
	}
}

// TestConcurrentCreates: creates at once get ids of their own (run with
// -race, as make test does for the emulators).
func TestConcurrentCreates(t *testing.T) {
	a := newAPI(fleet.Config{})
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			a.Create(server{})
			a.call("GET", "/v1/servers", "")
		})
	}
	wg.Wait()
	seen := map[int]bool{}
	for _, s := range a.Servers() {
		seen[s.ID] = true
	}
	if len(seen) != 16 {
		t.Errorf("%d distinct ids for 16 creates", len(seen))
	}
}
