package hcloud

import (
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// TestInventoryListsEveryServer: managed and unmarked servers alike, each
// mapped as Get maps it, across every page at the largest page size.
func TestInventoryListsEveryServer(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	a := newTestAccount(t, endpoint)
	for i := range 3 {
		n := "m-" + strconv.Itoa(i)
		if _, err := a.Create(ctxT(t), testCall(n), testRequest(n)); err != nil {
			t.Fatal(err)
		}
	}
	off := e.AddServer(emu.Server{Name: "u-off", Status: "off", Labels: map[string]string{"team": "a"}})
	e.AddServer(emu.Server{Name: "u-arm", ServerType: "cax11", Location: "nbg1"})
	e.SetMaxPageSize(2)
	e.ResetStats()
	ms, err := a.Inventory(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range ms {
		names = append(names, m.Name)
		if m.Managed != strings.HasPrefix(m.Name, "m-") {
			t.Errorf("%s: managed %t", m.Name, m.Managed)
		}
		want, err := a.Get(ctxT(t), m.ID)
		if err != nil {
			t.Fatal(err)
		}
		if m.State != want.State || m.RawState != want.RawState || m.OfferID != want.OfferID || m.Location != want.Location ||
			m.Image != want.Image || m.IPv4 != want.IPv4 || m.IPv6 != want.IPv6 || !m.CreatedAt.Equal(want.CreatedAt) || m.Key != want.Key {
			t.Errorf("%s: inventory %+v, Get %+v", m.Name, m, want)
		}
		if _, marked := m.Labels[labelManaged]; marked {
			t.Errorf("%s: labels %v show the provider's mark", m.Name, m.Labels)
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"m-0", "m-1", "m-2", "u-arm", "u-off"}) {
		t.Errorf("inventory = %v, want every server", names)
	}
	if got := e.Stats()["GET /servers"]; got != 3 {
		t.Errorf("GET /servers called %d times, want 3 pages of 2", got)
	}
	m, _ := a.Get(ctxT(t), strconv.FormatInt(off, 10))
	if m.State != adapter.StateStopped || m.RawState != "off" || m.Labels["team"] != "a" {
		t.Errorf("u-off = %+v", m)
	}
	for _, s := range e.Servers() {
		if strings.HasPrefix(s.Name, "u-") && s.Labels[labelManaged] != "" {
			t.Errorf("the inventory marked %s: %v", s.Name, s.Labels)
		}
	}
}

// TestInventoryUsesTheLargestPage: 120 servers are three pages of 50.
func TestInventoryUsesTheLargestPage(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	a := newTestAccount(t, endpoint)
	for i := range 120 {
		e.AddServer(emu.Server{Name: "u-" + strconv.Itoa(i)})
	}
	e.ResetStats()
	ms, err := a.Inventory(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 120 {
		t.Errorf("%d machines, want 120", len(ms))
	}
	if got := e.Stats()["GET /servers"]; got != 3 {
		t.Errorf("GET /servers called %d times, want 3", got)
	}
}

// TestInventoryFailingMidwayIsAnError: a page that fails fails the whole
// inventory; a shorter list would hide machines.
func TestInventoryFailingMidwayIsAnError(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	a := newTestAccount(t, endpoint, func(o *options) {
		o.transport = roundTripFunc(func(r *http.Request) (*http.Response, error) {
			if r.Method == http.MethodGet && r.URL.Path == "/v1/servers" && r.URL.Query().Get("page") == "3" {
				return &http.Response{StatusCode: 503, Status: "503 Service Unavailable", Request: r,
					Header: http.Header{"Content-Type": {"application/json"}},
					Body:   io.NopCloser(strings.NewReader(`{"error":{"code":"unavailable","message":"injected failure: unavailable","details":{}}}`))}, nil
			}
			return http.DefaultTransport.RoundTrip(r)
		})
	})
	for i := range 5 {
		e.AddServer(emu.Server{Name: "u-" + strconv.Itoa(i)})
	}
	e.SetMaxPageSize(2)
	ms, err := a.Inventory(ctxT(t))
	if err == nil || ms != nil {
		t.Fatalf("Inventory = %d machines, %v; want an error and no list", len(ms), err)
	}
	if !adapter.Is(err, adapter.Transient) || !strings.Contains(err.Error(), "list every server, page 3") {
		t.Errorf("got %v, want Transient naming page 3", err)
	}
}
