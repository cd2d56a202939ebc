package hcloud

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter/conformance"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/marks"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

func TestConformance(t *testing.T) {
	conformance.Run(t, func(t *testing.T) conformance.Target {
		e, endpoint := startEmulator(t, emu.Options{ActionPolls: 2})
		e.AddSSHKey(testRescueKey, testRescuePublicKey)
		settings := testSettings(endpoint)
		settings[settingRescueKeys] = testRescueKey
		return conformance.Target{
			Definition: definition(testOptions()),
			Settings:   settings,
			Env:        testEnv(testToken),
			OfferID:    "cx22",
			Image:      "ubuntu-24.04",
			Location:   "fsn1",
			SeedUnmarked: func(t *testing.T, name string) string {
				return strconv.FormatInt(e.AddServer(emu.Server{Name: name, Labels: map[string]string{"owner": "someone-else"}}), 10)
			},
			PowerObservable: true,
			ReservedLabel:   labelMarks.Name(marks.FieldManaged),
			// Armed counts as well as booted: a refusal must do neither.
			InRescue: func(t *testing.T, id string) bool {
				n, err := strconv.ParseInt(id, 10, 64)
				if err != nil {
					t.Fatalf("%q is not a server id", id)
				}
				s, ok := e.Server(n)
				return ok && (s.RescueEnabled || s.InRescue)
			},
			Faults:  e.Conformance(),
			Secrets: []string{testToken},
			ServeImpostor: func(t *testing.T, h http.Handler) map[string]string {
				srv := httptest.NewServer(h)
				t.Cleanup(srv.Close)
				return conformance.PointAt(t, settings, "endpoint", srv.URL)
			},
		}
	})
}

// The project SSH key rescue systems accept in the tests.
const (
	testRescueKey       = "ops"
	testRescuePublicKey = emu.ExamplePublicKey
)
