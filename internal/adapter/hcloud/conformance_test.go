package hcloud

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter/conformance"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

func TestConformance(t *testing.T) {
	conformance.Run(t, func(t *testing.T) conformance.Target {
		e, endpoint := startEmulator(t, emu.Options{ActionPolls: 2})
		return conformance.Target{
			Definition: definition(testOptions()),
			Settings:   testSettings(endpoint),
			Env:        testEnv(testToken),
			OfferID:    "cx22",
			Image:      "ubuntu-24.04",
			Location:   "fsn1",
			SeedUnmarked: func(t *testing.T, name string) string {
				return strconv.FormatInt(e.AddServer(emu.Server{Name: name, Labels: map[string]string{"owner": "someone-else"}}), 10)
			},
			PowerObservable: true,
			Faults:          e.Conformance(),
			Secrets:         []string{testToken},
			ServeImpostor: func(t *testing.T, h http.Handler) map[string]string {
				srv := httptest.NewServer(h)
				t.Cleanup(srv.Close)
				return conformance.PointAt(t, testSettings(endpoint), "endpoint", srv.URL)
			},
		}
	})
}
