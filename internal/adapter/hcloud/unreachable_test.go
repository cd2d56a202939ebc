package hcloud

import (
	"net/http/httptest"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter/adaptertest"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/netfault"
)

// TestUnreachableEndpoints: through hcloud-go and the real transport, a
// refused connection, a host name that does not resolve and a certificate
// nobody trusts are each a failure to reach the API (adapter.Unreachable),
// Transient, never absence, for every read a plan makes; an endpoint that
// answers 503 or never answers is not.
func TestUnreachableEndpoints(t *testing.T) {
	failing := httptest.NewServer(adaptertest.Unavailable)
	t.Cleanup(failing.Close)
	silent, _ := silentEndpoint(t)
	for _, c := range []struct {
		name, endpoint string
		tune           func(*options)
		unreachable    bool
		says           string
	}{
		{name: "refused", endpoint: "http://" + netfault.ClosedAddr(t) + "/v1", unreachable: true, says: "(connection refused)"},
		{name: "unresolvable", endpoint: "https://api.example.invalid/v1", unreachable: true, says: "(name resolution failed)",
			tune: func(o *options) { o.transport = netfault.Transport(t) }},
		{name: "untrusted certificate", endpoint: netfault.UntrustedTLS(t) + "/v1", unreachable: true, says: "(TLS certificate not accepted)"},
		{name: "503", endpoint: failing.URL + "/v1", says: "HTTP 503"},
		{name: "silent", endpoint: silent, says: "did not answer within",
			tune: func(o *options) { o.requestTimeout = 50 * time.Millisecond }},
	} {
		t.Run(c.name, func(t *testing.T) {
			var tune []func(*options)
			if c.tune != nil {
				tune = append(tune, c.tune)
			}
			a := newTestAccount(t, c.endpoint, tune...)
			ctx := ctxT(t)
			adaptertest.ExpectPlanReads(ctx, t, a, "42", adaptertest.Failure{Unreachable: c.unreachable, Says: c.says})
		})
	}
}
