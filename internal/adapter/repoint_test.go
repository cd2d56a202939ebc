package adapter_test

import (
	"errors"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

func TestCanonicalEndpoint(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"https://api.hetzner.cloud/v1", "https://api.hetzner.cloud/v1"},
		{"https://api.hetzner.cloud/v1/", "https://api.hetzner.cloud/v1"},
		{"HTTPS://API.Hetzner.Cloud:443/v1//", "https://api.hetzner.cloud/v1"},
		{"http://127.0.0.1:80/", "http://127.0.0.1"},
		{"http://127.0.0.1:8080/v1/", "http://127.0.0.1:8080/v1"},
		{"https://pve.example.com:8006", "https://pve.example.com:8006"},
		{"https://[::1]:443/", "https://[::1]"},
		{"https://[::1]:8006/", "https://[::1]:8006"},
		// Case in the path is the API's: kept.
		{"https://example.com/API/", "https://example.com/API"},
		// Not a URL: as it is, for the setting's check to refuse.
		{"not a url", "not a url"},
		{"", ""},
	} {
		if got := adapter.CanonicalEndpoint(c.in); got != c.want {
			t.Errorf("CanonicalEndpoint(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func repointDefinition() adapter.Definition {
	return adapter.Definition{Kind: "k", Settings: []adapter.Setting{
		{Name: "url", Role: adapter.RoleEndpoint, Scope: true},
		{Name: "token", Role: adapter.RoleSecret},
		{Name: "cancel", Role: adapter.RoleCancelsRental},
	}}
}

// TestScopeAndIDIgnoreTheEndpointsSpelling: idempotency keys and account
// ids do not change with a trailing slash or a default port, and do change
// with another host.
func TestScopeAndIDIgnoreTheEndpointsSpelling(t *testing.T) {
	d := repointDefinition()
	reg := adapter.NewRegistry(d)
	a := map[string]string{"url": "https://h.example/v1", "token": "env://T"}
	b := map[string]string{"url": "HTTPS://h.example:443/v1/", "token": "env://T"}
	c := map[string]string{"url": "https://other.example/v1", "token": "env://T"}
	if d.Scope(a) != d.Scope(b) || d.Scope(a) == d.Scope(c) {
		t.Errorf("scopes: %q, %q, %q; want the first two equal and the third apart", d.Scope(a), d.Scope(b), d.Scope(c))
	}
	la, lb, lc := adapter.Locator{Kind: "k", Settings: a}, adapter.Locator{Kind: "k", Settings: b}, adapter.Locator{Kind: "k", Settings: c}
	if s, _ := reg.Scope(lb); s != d.Scope(a) {
		t.Errorf("Registry.Scope = %q, want %q", s, d.Scope(a))
	}
	if !reg.SameAccount(la.String(), lb.String()) || reg.SameAccount(la.String(), lc.String()) {
		t.Errorf("SameAccount: a~b %v, a~c %v; want true, false", reg.SameAccount(la.String(), lb.String()), reg.SameAccount(la.String(), lc.String()))
	}
	if reg.Canonical(lb).String() != la.String() {
		t.Errorf("Canonical(%s) = %s, want %s", lb, reg.Canonical(lb), la)
	}
	if b["url"] != "HTTPS://h.example:443/v1/" {
		t.Errorf("Canonical changed its argument: %v", b)
	}
}

func TestCancelsRental(t *testing.T) {
	d := repointDefinition()
	if s, on := d.CancelsRental(map[string]string{"cancel": "true"}); s != "cancel" || !on {
		t.Errorf("CancelsRental(true) = %q, %v", s, on)
	}
	if _, on := d.CancelsRental(map[string]string{"cancel": "false"}); on {
		t.Error("CancelsRental(false) is on")
	}
	if s, on := (adapter.Definition{Kind: "x"}).CancelsRental(nil); s != "" || on {
		t.Errorf("an adapter without the role: %q, %v", s, on)
	}
}

func TestReachedThrough(t *testing.T) {
	ours := adapter.Machine{ID: "7", Name: "web", Managed: true, Claim: "c1"}
	transient := adapter.Errorf(adapter.Transient, "backend down")
	for _, c := range []struct {
		name        string
		m           adapter.Machine
		err         error
		claim, want string
		notReached  bool
	}{
		{name: "ours", m: ours, claim: "c1", want: "web"},
		{name: "gone", err: adapter.Errorf(adapter.NotFound, "no server 7"), claim: "c1", notReached: true},
		{name: "another claim", m: adapter.Machine{ID: "7", Name: "web", Managed: true, Claim: "c2"}, claim: "c1", notReached: true},
		{name: "unmarked", m: adapter.Machine{ID: "7", Name: "web"}, claim: "c1", notReached: true},
		{name: "no claim, same name", m: adapter.Machine{ID: "7", Name: "web"}, want: "web"},
		{name: "no claim, another name", m: adapter.Machine{ID: "7", Name: "db"}, want: "web", notReached: true},
	} {
		err := adapter.ReachedThrough(c.m, c.err, "7", c.claim, c.want)
		if adapter.NotReached(err) != c.notReached || (!c.notReached && err != nil) {
			t.Errorf("%s: ReachedThrough = %v, want not reached %v", c.name, err, c.notReached)
		}
	}
	// An answer that says nothing is no proof either way: returned as it is.
	if err := adapter.ReachedThrough(adapter.Machine{}, transient, "7", "c1", "web"); !errors.Is(err, transient) || adapter.NotReached(err) {
		t.Errorf("a transient failure: %v, want it unchanged", err)
	}
}
