package robot

import (
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// TestScopeIgnoresTheEndpointsSpelling: the scope keys are derived from
// (and the key a server's name is recomputed with) is the same for the
// endpoint written with a trailing slash or its default port, so an
// account re-pointed that way finds its servers by the same keys.
func TestScopeIgnoresTheEndpointsSpelling(t *testing.T) {
	scope := func(endpoint string) string {
		t.Helper()
		norm, err := Definition().Normalize(map[string]string{"user": "env://U", "password": "env://P", "endpoint": endpoint}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return newAccount(norm, adapter.Env{}, defaultOptions()).scope
	}
	base := scope(DefaultEndpoint)
	for _, spelled := range []string{DefaultEndpoint + "/", "HTTPS://robot-ws.your-server.de:443/"} {
		if got := scope(spelled); got != base {
			t.Errorf("scope of %s = %q, want %q as for %s", spelled, got, base, DefaultEndpoint)
		}
	}
	if scope("https://robot-ws.example.com") == base {
		t.Error("another host has the same scope")
	}
}
