package proxmox

import (
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// TestScopeIgnoresTheEndpointsSpelling: the scope VM keys are derived from
// is the same for the endpoint written with a trailing slash, so an
// account re-pointed that way finds its VMs by the same keys.
func TestScopeIgnoresTheEndpointsSpelling(t *testing.T) {
	scope := func(endpoint string) string {
		t.Helper()
		norm, err := definition(testOptions()).Normalize(map[string]string{"endpoint": endpoint, "api_token": "env://T", "flavors": `{"small":{"cores":1,"memory_mib":512,"disk_gib":1}}`}, nil)
		if err != nil {
			t.Fatal(err)
		}
		a, err := newAccount(norm, adapter.Env{}, testOptions())
		if err != nil {
			t.Fatal(err)
		}
		return a.scope
	}
	if a, b := scope("https://pve.example.com:8006"), scope("https://PVE.example.com:8006/"); a != b {
		t.Errorf("scopes %q and %q differ for one endpoint", a, b)
	}
}
