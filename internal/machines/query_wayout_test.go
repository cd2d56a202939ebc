package machines_test

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// TestQueryUnreachableWayOut: a list block over an endpoint nobody listens
// on fails naming the endpoint, and its way out names no timeouts, which a
// list block does not have.
func TestQueryUnreachableWayOut(t *testing.T) {
	t.Parallel()
	reg := provider.DefaultRegistry()
	// Port 9 (discard) on loopback: nothing listens, the dial is refused.
	loc, err := reg.Locate("hcloud", map[string]string{"token": "env://" + acctest.HetznerCloudTokenEnv, "endpoint": "http://127.0.0.1:9/v1"})
	if err != nil {
		t.Fatal(err)
	}
	p := acctest.NewProto(t, reg)
	got := p.List("compute_instance", map[string]tftypes.Value{
		"accounts": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{acctest.String(loc.String())}),
	}, false)
	var errs []string
	for _, r := range got {
		errs = append(errs, acctest.Diagnostics(r.Diagnostics, tfprotov6.DiagnosticSeverityError)...)
	}
	text := strings.Join(errs, "\n")
	if !strings.Contains(text, "127.0.0.1:9") || !strings.Contains(text, "could not be reached") {
		t.Fatalf("the list over an unreachable endpoint: %q, want it refused naming the endpoint", text)
	}
	if strings.Contains(text, "timeouts") || !strings.Contains(text, "terraform query again") {
		t.Errorf("the way out of a list block names timeouts or not the query:\n%s", text)
	}
}
