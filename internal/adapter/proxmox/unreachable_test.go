package proxmox

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/adaptertest"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/netfault"
)

// TestUnreachableAPI: through the thin client and a real transport, a
// refused connection, a host name that does not resolve, a certificate that
// is not trusted and one that does not match the pin are each a failure to
// reach the API (adapter.Unreachable), never absence, for every read a plan
// makes. The certificates keep their code, InvalidConfig on the setting to
// fix; a PVE that answers 503 is not unreachable.
func TestUnreachableAPI(t *testing.T) {
	f := newFake(t)
	failing := httptest.NewTLSServer(adaptertest.Unavailable)
	t.Cleanup(failing.Close)
	sum := sha256.Sum256(failing.Certificate().Raw)
	untrusted := netfault.UntrustedTLS(t)
	const otherPin = "AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99"
	for _, c := range []struct {
		name        string
		settings    map[string]string
		transport   http.RoundTripper
		code        adapter.Code
		field       string
		unreachable bool
		says        string
	}{
		{name: "refused", settings: map[string]string{"endpoint": "https://" + netfault.ClosedAddr(t)},
			code: adapter.Transient, unreachable: true, says: "connection refused"},
		{name: "unresolvable", settings: map[string]string{"endpoint": "https://pve.example.invalid:8006"}, transport: netfault.Transport(t),
			code: adapter.Transient, unreachable: true, says: "name resolution failed"},
		{name: "untrusted certificate", settings: map[string]string{"endpoint": untrusted, "tls_fingerprint": ""},
			code: adapter.InvalidConfig, field: settingTLSFingerprint, unreachable: true, says: "not trusted"},
		{name: "another certificate than the pin", settings: map[string]string{"endpoint": untrusted, "tls_fingerprint": otherPin},
			code: adapter.InvalidConfig, field: settingTLSFingerprint, unreachable: true, says: "tls_fingerprint"},
		{name: "503", settings: map[string]string{"endpoint": failing.URL, "tls_fingerprint": hex.EncodeToString(sum[:])},
			code: adapter.Transient, says: "503"},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := testAccount(t, f, c.settings)
			if c.transport != nil {
				a.c.HTTP.Transport = c.transport
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			adaptertest.ExpectPlanReads(ctx, t, a, "100", adaptertest.Failure{Unreachable: c.unreachable, Code: c.code, Field: c.field, Says: c.says})
		})
	}
}
