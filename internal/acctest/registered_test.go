package acctest

import (
	"slices"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// TestRegisteredBackendFromDefinition: an adapter beyond the shipped ones
// gets a backend whose variables follow its settings, which puts its tests
// on the API they name, a secret only as a reference to its variable.
func TestRegisteredBackendFromDefinition(t *testing.T) {
	toy := adapter.Definition{Kind: "toy", Settings: []adapter.Setting{
		{Name: "api_key", Required: true, Role: adapter.RoleSecret},
		{Name: "region", Default: "north", Role: adapter.RoleLocation},
		{Name: "endpoint", Role: adapter.RoleEndpoint},
	}}
	got := registered([]adapter.Definition{{Kind: "hcloud"}, {Kind: "robot"}, toy, {Kind: "proxmox"}})
	if len(got) != 1 || got[0].Kind != "toy" {
		t.Fatalf("registered %v, want the toy's backend alone", got)
	}
	b := got[0]
	if want := []string{"COMPUTE_TEST_TOY_OFFER", "COMPUTE_TEST_TOY_IMAGE", "COMPUTE_TEST_TOY_API_KEY"}; !slices.Equal(b.Required, want) {
		t.Errorf("required %v, want %v", b.Required, want)
	}
	env := map[string]string{"COMPUTE_TEST_TOY_API_KEY": "s3cret-key", "COMPUTE_TEST_TOY_ENDPOINT": "http://127.0.0.1:8080/toy/v1",
		"COMPUTE_TEST_TOY_OFFER": "tiny", "COMPUTE_TEST_TOY_IMAGE": "plain"}
	if missing := b.missing(func(v string) string { return env[v] }); len(missing) != 0 || b.kindAt(env[b.endpointEnv]) != Standalone {
		t.Errorf("missing %v, target %v; want a run on the API already running on loopback", missing, b.kindAt(env[b.endpointEnv]))
	}
	tg := &Target{Backend: b}
	b.remote(tg, env)
	if tg.Settings["api_key"] != "env://COMPUTE_TEST_TOY_API_KEY" || tg.Settings["endpoint"] != env["COMPUTE_TEST_TOY_ENDPOINT"] ||
		tg.Settings["region"] != "" || tg.Offer != "tiny" || tg.Image != "plain" {
		t.Errorf("settings %v, offer %q, image %q: want the key as a reference, the endpoint as given", tg.Settings, tg.Offer, tg.Image)
	}
	if !b.marked(tg, adapter.Machine{Labels: map[string]string{SweepLabel: SweepValue}}) || b.marked(tg, adapter.Machine{}) {
		t.Error("the test mark is not the sweep label")
	}
}
