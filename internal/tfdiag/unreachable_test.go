package tfdiag

import (
	"fmt"
	"strings"
	"syscall"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// TestUnreachableWayOut: a read that gave up on an endpoint it could not
// reach names the endpoint, redacted, the failure, that the state is kept,
// and the timeout to raise; a certificate the settings must fix keeps its
// own way out, and so does a backend that answered.
func TestUnreachableWayOut(t *testing.T) {
	refused := &adapter.Error{Code: adapter.Transient, Message: "gave up",
		Err: adapter.MarkUnreachable(fmt.Errorf("dial tcp: %w", syscall.ECONNREFUSED))}
	got := ListWayOut(refused, "https://user:pw@api.example/v1?k=s3cr3t")
	for _, want := range []string{"The account's endpoint https://", "could not be reached (connection refused)",
		"the state is kept as it was", "set timeouts.unreachable to retry for longer"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q does not say %q", got, want)
		}
	}
	if strings.Contains(got, "pw") || strings.Contains(got, "s3cr3t") || strings.Contains(got, "raise timeouts.read") {
		t.Errorf("%q repeats the endpoint's secrets or sends the user to timeouts.read", got)
	}
	pinned := &adapter.Error{Code: adapter.InvalidConfig, Field: "tls_fingerprint", Err: adapter.MarkUnreachable(fmt.Errorf("certificate mismatch"))}
	if Unreachable(pinned) || ListWayOut(pinned, "https://pve.example:8006") != WayOut(pinned) {
		t.Errorf("a certificate to fix in the settings got the unreachable way out")
	}
	if failing := adapter.Errorf(adapter.Transient, "503"); Unreachable(failing) {
		t.Error("a 503 taken for an unreachable endpoint")
	}
}

// TestEndpoint: the endpoint setting is found by its role, its variable's
// value in the environment given, else its default, standing in when the
// settings leave it out.
func TestEndpoint(t *testing.T) {
	def := adapter.Definition{Settings: []adapter.Setting{{Name: "api_url", Role: adapter.RoleEndpoint, Default: "https://api.example/v1", Env: "FAKE_ENDPOINT"}}}
	env := adapter.MapEnv(map[string]string{"FAKE_ENDPOINT": "https://env.example/v1"})
	if got := Endpoint(def, map[string]string{"api_url": "https://other.example/v1"}, env); got != "https://other.example/v1" {
		t.Errorf("set: %q", got)
	}
	if got := Endpoint(def, map[string]string{}, nil); got != "https://api.example/v1" {
		t.Errorf("default: %q", got)
	}
	if got := Endpoint(def, map[string]string{}, env); got != "https://env.example/v1" {
		t.Errorf("from the environment: %q", got)
	}
	if got := Endpoint(adapter.Definition{}, map[string]string{"endpoint": "x"}, nil); got != "" {
		t.Errorf("no endpoint setting: %q", got)
	}
}
