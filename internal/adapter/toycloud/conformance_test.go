package toycloud

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/conformance"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/marks"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/toycloud"
)

const confKey = "toycloud-conf-key-7Qx2"

// TestConformance runs the contract's cases against the Toy Cloud emulator.
func TestConformance(t *testing.T) {
	conformance.Run(t, newConfTarget)
}

// testEnv resolves the account's key reference, provider://toycloud.
func testEnv(clock adapter.Clock) adapter.Env {
	return adapter.Env{Secrets: adapter.SecretResolver{Provider: map[string]string{"toycloud": confKey}}, Clock: clock}
}

func newConfTarget(t *testing.T) conformance.Target {
	emu := toycloud.New(toycloud.Options{Token: confKey})
	srv := httptest.NewServer(emu)
	t.Cleanup(srv.Close)
	settings := map[string]string{settingKey: "provider://toycloud", settingEndpoint: srv.URL + toycloud.BasePath}
	return conformance.Target{
		Definition: Definition(),
		Settings:   settings,
		Env:        testEnv(adapter.RealClock{}),
		OfferID:    "tiny", Image: "plain", OtherImage: "plain-next", Location: "north",
		SeedUnmarked:    func(_ *testing.T, name string) string { return strconv.Itoa(emu.Seed(name, nil)) },
		PowerObservable: true,
		ReservedLabel:   labelMarks.Name(marks.FieldManaged),
		Faults:          emu.Conformance(),
		Secrets:         []string{confKey},
		ServeImpostor: func(t *testing.T, h http.Handler) map[string]string {
			imp := httptest.NewServer(h)
			t.Cleanup(imp.Close)
			return conformance.PointAt(t, settings, settingEndpoint, imp.URL)
		},
	}
}
