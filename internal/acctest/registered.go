package acctest

import (
	"slices"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/standalone"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// shipped are the kinds of the backends with their own helpers
// (backends.go), read from them so that the two lists cannot differ.
var shipped = []string{HetznerCloud.Kind, HetznerRobot.Kind, ProxmoxVE.Kind}

// Registered are the backends of every other adapter in the provider's
// registry (one built in with the testbackends tag), so that a new backend
// is tested here with no edit of this package: each runs on the API its
// variables name, COMPUTE_TEST_<KIND>_<KEY> (standalone.Variable), as the
// standalone emulator announces them on its "KIND-testacc" line. Its
// machines carry the test label (Target.Labels), so its adapter must take
// labels; there is no in-process emulator for it here, so a test that
// would run on one skips.
var Registered = registered(provider.DefaultRegistry().Definitions())

func registered(defs []adapter.Definition) []*Backend {
	var out []*Backend
	for _, d := range defs {
		if !slices.Contains(shipped, d.Kind) {
			out = append(out, registeredBackend(d))
		}
	}
	return out
}

// registeredBackend reads an account's settings from the variables of its
// names: a secret setting as the reference env://VARIABLE, never the value.
func registeredBackend(d adapter.Definition) *Backend {
	v := func(key string) string { return standalone.Variable(d.Kind, key) }
	b := &Backend{Kind: d.Kind, Title: d.Kind, Required: []string{v("offer"), v("image")}, Optional: []string{v("location")},
		TestMark: "the label " + SweepLabel + " = " + SweepValue,
		local: func(t testing.TB, _ *Target) {
			t.Skipf("%s has no in-process emulator here; make testacc-emulator runs its tests on the standalone emulator", d.Kind)
		},
		remote: func(tg *Target, env map[string]string) {
			tg.Settings = map[string]string{}
			for _, s := range d.Settings {
				tg.Settings[s.Name] = env[v(s.Name)]
				if s.IsSecret() && env[v(s.Name)] != "" {
					tg.Settings[s.Name] = "env://" + v(s.Name)
				}
			}
			tg.Offer, tg.Image, tg.Location = env[v("offer")], env[v("image")], env[v("location")]
		},
		marked:    func(_ *Target, m adapter.Machine) bool { return m.Labels[SweepLabel] == SweepValue },
		destroyed: func(*Target) error { return nil },
	}
	for _, s := range d.Settings {
		switch {
		case s.Role == adapter.RoleEndpoint:
			b.endpointEnv = v(s.Name)
			b.Optional = append(b.Optional, v(s.Name))
		case s.Required:
			b.Required = append(b.Required, v(s.Name))
		default:
			b.Optional = append(b.Optional, v(s.Name))
		}
	}
	return b
}
