package toycloud

import (
	"context"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/adaptertest"
)

// TestGetRefusesMalformedIDRedacted: a malformed id is refused before any
// request, and the refusal repeats it only redacted (rule 6, no secret
// leaves, of internal/adapter's package documentation), since a user may
// paste a secret where the id belongs.
func TestGetRefusesMalformedIDRedacted(t *testing.T) {
	a, err := Definition().New(map[string]string{settingKey: "provider://toycloud", settingRegion: "north", settingEndpoint: "http://127.0.0.1:1/v1"},
		adapter.Env{Secrets: adapter.SecretResolver{Provider: map[string]string{"toycloud": confKey}}, Clock: adaptertest.InstantClock{}})
	if err != nil {
		t.Fatal(err)
	}
	const pasted = "tc_live_Q9x7Vb2Lm4Np8Rs6Tu1Wy3Za5Cd0Ef"
	_, err = a.Get(context.Background(), pasted)
	if adapter.CodeOf(err) != adapter.InvalidInput {
		t.Fatalf("Get(%q) = %v, want InvalidInput", pasted, err)
	}
	if msg := err.Error(); strings.Contains(msg, pasted) || !strings.Contains(msg, rules.MachineID.Text) {
		t.Errorf("message %q must name the rule and not repeat the id", msg)
	}
}
