package robot

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/adaptertest"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/netfault"
)

// TestUnreachableWebservice: through the thin client and a real transport,
// a refused connection, a host name that does not resolve and a certificate
// nobody trusts are each a failure to reach the webservice
// (adapter.Unreachable), Transient, never absence, for every read a plan
// makes; a webservice that answers 503 is not.
func TestUnreachableWebservice(t *testing.T) {
	failing := httptest.NewServer(adaptertest.Unavailable)
	t.Cleanup(failing.Close)
	for _, c := range []struct {
		name, endpoint string
		transport      http.RoundTripper
		unreachable    bool
		says           string
	}{
		{name: "refused", endpoint: "http://" + netfault.ClosedAddr(t), unreachable: true, says: "connection refused"},
		{name: "unresolvable", endpoint: "https://robot-ws.example.invalid", transport: netfault.Transport(t), unreachable: true, says: "name resolution failed"},
		{name: "untrusted certificate", endpoint: netfault.UntrustedTLS(t), unreachable: true, says: "TLS certificate not accepted"},
		{name: "503", endpoint: failing.URL, says: "HTTP 503"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := unreachableAccount(t, c.endpoint, c.transport)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			adaptertest.ExpectPlanReads(ctx, t, a, "321", adaptertest.Failure{Unreachable: c.unreachable, Says: c.says})
		})
	}
}

// unreachableAccount opens an account on endpoint, its requests carried by
// transport (http.DefaultTransport when nil).
func unreachableAccount(t *testing.T, endpoint string, transport http.RoundTripper) *account {
	t.Helper()
	d := definition(options{poll: adapter.Backoff{Initial: time.Millisecond, Max: time.Millisecond}, requestTimeout: 5 * time.Second, transport: transport})
	norm, err := d.Normalize(map[string]string{"user": "provider://robot_user", "password": "provider://robot_password", "endpoint": endpoint, "ssh_key": testKey}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := d.New(norm, adapter.Env{
		Secrets: adapter.SecretResolver{Provider: map[string]string{"robot_user": testUser, "robot_password": testPassword}},
		Clock:   adaptertest.InstantClock{},
	})
	if err != nil {
		t.Fatal(err)
	}
	return a.(*account)
}
