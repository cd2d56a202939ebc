package proxmox

import (
	"context"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/adaptertest"
)

// A VM without the compute tag is never deleted or powered.
func TestUntaggedRefused(t *testing.T) {
	f := newFake(t)
	f.addVM(4242, "hand-made", "prod", "made by hand", "running")
	a := testAccount(t, f, nil)
	ctx := context.Background()
	if err := a.Delete(ctx, "4242"); !adapter.Is(err, adapter.AccessDenied) || !strings.Contains(err.Error(), "hand-made") || !strings.Contains(err.Error(), "import") {
		t.Errorf("delete: %v", err)
	}
	for _, act := range adapter.PowerActions {
		if err := a.Power(ctx, "4242", act); !adapter.Is(err, adapter.AccessDenied) {
			t.Errorf("%s: %v", act, err)
		}
	}
	// The refusal of an update says "change", as every backend's does.
	name := "taken"
	if _, err := a.Update(ctx, "4242", adapter.UpdateRequest{Name: &name}); !adapter.Is(err, adapter.AccessDenied) || !strings.Contains(err.Error(), "change: VM 4242") {
		t.Errorf("update: %v", err)
	}
	if f.vms[4242] == nil || f.vms[4242].Status != "running" || f.count("DELETE /nodes/{node}/qemu/{vmid}") != 0 {
		t.Error("the untagged VM was touched")
	}
	if _, err := a.Get(ctx, "9000"); !adapter.IsNotFound(err) {
		t.Errorf("a template read as a machine: %v", err)
	}
	if got, err := a.Get(ctx, "4242"); err != nil || got.Managed || len(got.Actions) != 0 {
		t.Errorf("Get of the untagged VM: %+v %v", got, err)
	}
}

// An agent that never answers costs one bounded request per VM: Get says
// pending without an address, within agent_timeout, and the next read in
// the quiet period does not ask again.
func TestSilentAgentIsBounded(t *testing.T) {
	f := newFake(t)
	a := testAccount(t, f, map[string]string{"agent_timeout": "100ms"})
	m, err := a.Create(context.Background(), callFor(a, "quiet"), createReq("quiet"))
	if err != nil {
		t.Fatal(err)
	}
	a.agents = agentMemory{quiet: time.Minute} // forget the create's own read
	f.mu.Lock()
	f.agentHang = true
	f.counts = map[string]int{}
	f.mu.Unlock()
	// The fake holds the agent request until its client leaves. With every
	// other request bounded by an hour, only agent_timeout can end it
	// before the guard does; the guard turns a read that agent_timeout does
	// not bound into a failure rather than a hang, on any machine.
	a.c.Timeout = time.Hour
	guard, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	got, err := a.Get(guard, m.ID)
	if err != nil || got.State != adapter.StatePending || got.RawState != "running (guest agent: no answer within 100ms)" || got.HasAddress() {
		t.Fatalf("silent agent: %+v %v", got, err)
	}
	if _, err := a.List(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := f.count("GET /nodes/{node}/qemu/{vmid}/agent/network-get-interfaces"); n != 1 {
		t.Errorf("%d agent requests, want 1 (no retry, no second ask within the quiet period)", n)
	}
}

// A certificate that does not match the pin ends the handshake: nothing,
// hence no token, reaches the server.
func TestPinMismatchSendsNothing(t *testing.T) {
	f := newFake(t)
	wrong := strings.Repeat("ab", 32)
	a := testAccount(t, f, map[string]string{"tls_fingerprint": wrong})
	err := a.Check(context.Background())
	if !adapter.Is(err, adapter.InvalidConfig) || adapter.FieldOf(err) != settingTLSFingerprint {
		t.Fatalf("mismatch: %v", err)
	}
	for _, want := range []string{colons(wrong), colons(f.fingerprint()), strings.TrimPrefix(f.srv.URL, "https://"), "pvenode cert info"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error does not name %s: %v", want, err)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.authed != 0 {
		t.Errorf("%d requests reached the server", f.authed)
	}
}

// A certificate the system roots or ca_file do not trust, or that names
// another host, is InvalidConfig on tls_fingerprint with the way out; an
// endpoint that does not speak TLS is InvalidConfig on endpoint. Neither
// gets a request.
func TestUntrustedCertificate(t *testing.T) {
	f := newFake(t)
	caFile := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: f.srv.Certificate().Raw}), 0o600); err != nil {
		t.Fatal(err)
	}
	plain := httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(plain.Close)
	for _, tc := range []struct {
		name     string
		settings map[string]string
		field    string
		want     string
	}{
		{"system roots", map[string]string{"tls_fingerprint": ""}, settingTLSFingerprint, "pvenode cert info"},
		{"another host", map[string]string{"tls_fingerprint": "", "ca_file": caFile, "endpoint": strings.Replace(f.srv.URL, "127.0.0.1", "localhost", 1)}, settingTLSFingerprint, "ca_file"},
		{"no TLS", map[string]string{"endpoint": strings.Replace(plain.URL, "http://", "https://", 1)}, settingEndpoint, "does not speak TLS"},
	} {
		err := testAccount(t, f, tc.settings).Check(context.Background())
		if !adapter.Is(err, adapter.InvalidConfig) || adapter.FieldOf(err) != tc.field || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want InvalidConfig on %s saying %q", tc.name, err, tc.field, tc.want)
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.authed != 0 {
		t.Errorf("%d requests reached the server", f.authed)
	}
}

// Two trust settings at once are refused, naming both: each replaces the
// other's check, so one of them would be silently ignored.
func TestTwoTrustSettingsRefused(t *testing.T) {
	ca := filepath.Join(t.TempDir(), "ca.pem")
	if err := os.WriteFile(ca, []byte("not read"), 0o600); err != nil {
		t.Fatal(err)
	}
	pin := strings.Repeat("ab", 32)
	for _, tc := range []struct {
		tr   trust
		both [2]string
	}{
		{trust{pin: pin, insecure: true}, [2]string{settingTLSFingerprint, settingInsecure}},
		{trust{pin: pin, caFile: ca}, [2]string{settingCAFile, settingTLSFingerprint}},
		{trust{caFile: ca, insecure: true}, [2]string{settingCAFile, settingInsecure}},
	} {
		_, err := tc.tr.transport("h:8006")
		if !adapter.Is(err, adapter.InvalidConfig) || !strings.Contains(err.Error(), tc.both[0]) || !strings.Contains(err.Error(), tc.both[1]) || !strings.Contains(err.Error(), "pick one") {
			t.Errorf("%s and %s: %v, want InvalidConfig naming both", tc.both[0], tc.both[1], err)
		}
	}
}

// Without snippet settings, user data other than "" or "#cloud-config" is
// refused at plan, naming the field and never the content.
func TestUserDataWithoutSnippets(t *testing.T) {
	f := newFake(t)
	a := testAccount(t, f, nil)
	for _, ud := range []string{"", "#cloud-config", "  #cloud-config\n"} {
		req := createReq("u")
		req.UserData = ud
		if err := a.Validate(context.Background(), req); err != nil {
			t.Errorf("%q: %v", ud, err)
		}
	}
	req := createReq("u")
	req.UserData = "#cloud-config\nruncmd: [echo secret-ud-7731]\n"
	err := a.Validate(context.Background(), req)
	if !adapter.Is(err, adapter.InvalidInput) || adapter.FieldOf(err) != adapter.FieldUserData || strings.Contains(err.Error(), "secret-ud-7731") || !strings.Contains(err.Error(), "snippet_storage") {
		t.Errorf("user data: %v", err)
	}
}

func TestValidateNamesTheValue(t *testing.T) {
	f := newFake(t)
	a := testAccount(t, f, nil)
	for _, tc := range []struct {
		mut   func(*adapter.CreateRequest)
		field string
		says  string
	}{
		{func(r *adapter.CreateRequest) { r.OfferID = "huge" }, adapter.FieldOfferID, "large, small"},
		{func(r *adapter.CreateRequest) { r.Image = "debian" }, adapter.FieldImage, "ubuntu-24.04-cloud"},
		{func(r *adapter.CreateRequest) { r.Location = "pve9" }, adapter.FieldLocation, "pve1, pve2"},
	} {
		req := createReq("v")
		tc.mut(&req)
		err := a.Validate(context.Background(), req)
		if !adapter.Is(err, adapter.InvalidInput) || adapter.FieldOf(err) != tc.field || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v", tc.field, err)
		}
	}
}

// A VM being cloned reads as pending, never as absent nor stopped.
func TestLockedStates(t *testing.T) {
	a := &account{}
	for _, tc := range []struct {
		r    resource
		want adapter.State
	}{
		{resource{Status: "stopped", Lock: "clone", Tags: "compute;cm-new"}, adapter.StatePending},
		{resource{Status: "stopped", Lock: "clone"}, adapter.StatePending},  // cloned, tags not yet written
		{resource{Status: "stopped", Lock: "create"}, adapter.StatePending}, // restored, tags not yet written
		{resource{Status: "stopped", Lock: "backup"}, adapter.StateStopped},
		{resource{Status: "stopped", Lock: "destroyed", Tags: "compute"}, adapter.StateDeleting},
		{resource{Status: "stopped", Tags: "compute;cm-new"}, adapter.StatePending},
		{resource{Status: "stopped", Tags: "compute"}, adapter.StateStopped},
		{resource{Status: "running", Tags: "compute"}, adapter.StatePending},
		{resource{Status: "unknown", Tags: "compute"}, adapter.StateUnknown},
		{resource{Status: "paused", Tags: "compute"}, adapter.StateUnknown},
	} {
		if got := a.toMachine(tc.r, addresses{}); got.State != tc.want {
			t.Errorf("%+v: %s, want %s", tc.r, got.State, tc.want)
		}
	}
	if got := a.toMachine(resource{Status: "running", Tags: "compute"}, addresses{v4: "192.0.2.1"}); got.State != adapter.StateRunning {
		t.Errorf("running with an address: %s", got.State)
	}
}

// The inventory (compute_machines) shows a VM under a clone whose tags are
// not written yet as pending, not stopped; the listing of managed VMs, which
// cannot see the description's mark, leaves it out until they are.
func TestInventoryOfAnUntaggedClone(t *testing.T) {
	f := newFake(t)
	a := testAccount(t, f, nil)
	f.addVM(100500, "cloning", "", withMark("", adapter.Mark{Key: strings.Repeat("a", 32), Claim: strings.Repeat("b", 32)}), "stopped")
	f.vms[100500].Lock = "clone"
	inv, err := a.Inventory(context.Background())
	if err != nil || len(inv) != 1 || inv[0].State != adapter.StatePending || inv[0].RawState != "stopped (locked: clone)" {
		t.Fatalf("inventory: %+v %v, want the VM pending, raw stopped (locked: clone)", inv, err)
	}
	if list, err := a.List(context.Background()); err != nil || len(list) != 0 {
		t.Errorf("managed listing: %+v %v, want nothing until the tags are written", list, err)
	}
}

func TestPickAddresses(t *testing.T) {
	got := pickAddresses([]iface{
		{Name: "lo", Addresses: addrs("127.0.0.1", "::1")},
		{Name: "eth0", Addresses: addrs("169.254.3.3", "fe80::1", "192.0.2.7", "2001:db8::7", "192.0.2.8")},
	})
	if got.v4 != "192.0.2.7" || got.v6 != "2001:db8::7" {
		t.Errorf("%+v", got)
	}
}

func addrs(ips ...string) []struct {
	Type    string `json:"ip-address-type"`
	Address string `json:"ip-address"`
} {
	out := make([]struct {
		Type    string `json:"ip-address-type"`
		Address string `json:"ip-address"`
	}, len(ips))
	for i, ip := range ips {
		out[i].Address = ip
	}
	return out
}

// A token of another shape than USER@REALM!TOKENID=SECRET is refused on
// api_token before anything is sent, without repeating it.
func TestTokenShape(t *testing.T) {
	f := newFake(t)
	a := testAccount(t, f, nil)
	a.c.secrets = adapter.SecretResolver{Provider: map[string]string{"pve_token": "just-a-secret-9931"}}
	err := a.Check(context.Background())
	if !adapter.Is(err, adapter.InvalidConfig) || adapter.FieldOf(err) != settingAPIToken || strings.Contains(err.Error(), "just-a-secret-9931") {
		t.Errorf("token shape: %v", err)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.authed != 0 {
		t.Errorf("%d requests were sent", f.authed)
	}
}

// The request log names the route template, never the filled path, the
// query or the token.
func TestRequestLogShowsRoutesOnly(t *testing.T) {
	f := newFake(t)
	a := testAccount(t, f, nil)
	rec := &adaptertest.Log{}
	a.c.Log = rec
	if _, err := a.Create(context.Background(), callFor(a, "logged"), createReq("logged")); err != nil {
		t.Fatal(err)
	}
	all := rec.Text()
	if !strings.Contains(all, "/nodes/{node}/qemu/{vmid}/clone") || strings.Contains(all, fakeSecret) || strings.Contains(all, "type=vm") || strings.Contains(all, "/qemu/1") {
		t.Errorf("log:\n%s", all)
	}
}

// An error answer that repeats the token is withheld from the message.
func TestErrorRepeatingTheTokenIsWithheld(t *testing.T) {
	f := newFake(t)
	a := testAccount(t, f, nil)
	f.failRoute, f.failStatus, f.failReason, f.failN = "GET /version", 500, "bad token "+fakeSecret, 1
	err := a.Check(context.Background())
	if err == nil || strings.Contains(err.Error(), fakeSecret) {
		t.Errorf("the error repeats the token's secret: %v", err)
	}
}
