package instance_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// wrongPin is a fingerprint no emulator's certificate has.
const wrongPin = "00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF:00:11:22:33:44:55:66:77:88:99:AA:BB:CC:DD:EE:FF"

// TestProxmoxPinMismatchSendsNoToken: a certificate that does not match
// tls_fingerprint ends the connection before any request, so the token is
// never sent; the error names the host, both fingerprints and the way out.
func TestProxmoxPinMismatchSendsNoToken(t *testing.T) {
	t.Parallel()
	p := acctest.NewProxmox(t)
	cfg := strings.Replace(p.Account(), p.Fingerprint, wrongPin, 1) + p.Instance("web")
	host := strings.TrimPrefix(p.Endpoint, "https://")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ExpectError: acctest.Match(regexp.QuoteMeta(host) + ` offered a certificate with SHA-256 fingerprint ` + regexp.QuoteMeta(p.Fingerprint) +
					`, not the pinned ` + regexp.QuoteMeta(wrongPin) + `; nothing was sent to it\. Compare with .pvenode cert info.`),
			},
			{
				// Asserted here: a Check beside ExpectError never runs.
				PreConfig: func() {
					if n := p.PVE.Authorized(); n != 0 {
						t.Errorf("%d requests carried the token to a server whose certificate does not match the pin", n)
					}
					if len(p.Machines()) != 0 {
						t.Errorf("VMs were created through a mismatched pin: %+v", p.Machines())
					}
				},
				Config: p.Provider(),
			},
		},
	})
}
