package hcloud

import (
	"reflect"
	"strings"
	"testing"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// A read-only token passes every listing a plan makes, and Check, which
// only reads; only CheckWrite's probe tells it apart, on the token, with
// the way out.
func TestCheckWriteRefusesAReadOnlyToken(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{ReadOnlyToken: "read-only-7c1d"})
	a := newTestAccountWith(t, testSettings(endpoint), testEnv("read-only-7c1d"))
	if _, err := a.List(ctxT(t)); err != nil {
		t.Fatalf("a read-only token may list: %v", err)
	}
	if err := a.Check(ctxT(t)); err != nil {
		t.Fatalf("Check reads only, so a read-only token passes it: %v", err)
	}
	if n := e.Stats()["PUT /ssh_keys/{id}"]; n != 0 {
		t.Fatalf("Check sent the write probe %d times; plans and refreshes run it", n)
	}
	err := a.CheckWrite(ctxT(t))
	checkClassified(t, err, adapter.AccessDenied, "token", []string{"read-only", "cannot create servers", "Read & Write API token"})
	if strings.Contains(err.Error(), "read-only-7c1d") {
		t.Errorf("the error holds the token: %v", err)
	}
	if n := e.Stats()["PUT /ssh_keys/{id}"]; n != 1 {
		t.Errorf("the probe was sent %d times, want once", n)
	}
}

// The probe changes nothing with a read-write token either: no key or
// server appears, and none is written.
func TestCheckProbeChangesNothing(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	a := newTestAccount(t, endpoint)
	pub := emu.ExamplePublicKey
	if _, _, err := a.client.SSHKey.Create(ctxT(t), hcloud.SSHKeyCreateOpts{Name: "ci", PublicKey: pub, Labels: map[string]string{"k": "v"}}); err != nil {
		t.Fatal(err)
	}
	before, _ := a.client.SSHKey.All(ctxT(t))
	e.ResetStats()
	if err := a.CheckWrite(ctxT(t)); err != nil {
		t.Fatalf("CheckWrite with a read-write token: %v", err)
	}
	after, _ := a.client.SSHKey.All(ctxT(t))
	if len(before) != 1 || !reflect.DeepEqual(after, before) || len(e.Servers()) != 0 {
		t.Errorf("the probe changed the project: keys %+v -> %+v, servers %+v", before, after, e.Servers())
	}
	for route, n := range e.Stats() {
		if !strings.HasPrefix(route, "GET ") && route != "PUT /ssh_keys/{id}" {
			t.Errorf("CheckWrite sent %d %s", n, route)
		}
	}
}

// A probe that meets a failing API is no verdict on the token: CheckWrite
// returns the failure for the health check to retry.
func TestCheckProbeFailureIsTransient(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	a := newTestAccount(t, endpoint)
	e.FailNext("PUT", "/ssh_keys/{id}", 1, 503, "unavailable")
	err := a.CheckWrite(ctxT(t))
	checkClassified(t, err, adapter.Transient, "", []string{"prove that the token may write"})
	if err := a.CheckWrite(ctxT(t)); err != nil {
		t.Errorf("CheckWrite once the API answers: %v", err)
	}
}

// CheckWrite proves the keys rescue_ssh_keys names with one listing: a key
// the project lacks fails it on the setting, naming the keys there are and
// the way out; an account without the setting lists nothing.
func TestCheckWriteFindsAMisspeltRescueKey(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	e.AddSSHKey("ops", testRescuePublicKey)
	e.AddSSHKey("ci", testCIPublicKey)
	for keys, want := range map[string]error{"ops, ci": nil, "": nil, "ops,cj": adapter.Errorf(adapter.InvalidConfig, "")} {
		e.ResetStats()
		err := rescueAccount(t, endpoint, keys).CheckWrite(ctxT(t))
		if want == nil {
			if err != nil {
				t.Errorf("CheckWrite with %s = %q: %v", settingRescueKeys, keys, err)
			}
		} else {
			checkClassified(t, err, adapter.InvalidConfig, settingRescueKeys,
				[]string{`no SSH key named or with id "cj"`, "available: ci, ops", "hcloud ssh-key create", "correct the account's rescue_ssh_keys"})
		}
		lists := 0
		if keys != "" {
			lists = 1
		}
		if n := e.Stats()["GET /ssh_keys"]; n != lists {
			t.Errorf("CheckWrite with %s = %q listed the keys %d times, want %d", settingRescueKeys, keys, n, lists)
		}
	}
}
