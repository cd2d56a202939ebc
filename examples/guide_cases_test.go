package examples_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// guideCases says how each configuration under examples/guides is run.
var guideCases = map[string]guideCase{
	// The first apply of the getting-started guide, against the emulator
	// at the address the guide's `make emulator` prints.
	"guides/getting-started/emulator.tf": {
		prepare: func(t *testing.T, w *guideWorld, hcl string) string {
			return replaceOnce(t, hcl, "http://127.0.0.1:8080/v1", w.e.hcloud)
		},
		apply: true,
		plan:  creates("compute_provider_account.demo", "compute_instance.first"),
		state: []statecheck.StateCheck{
			statecheck.ExpectKnownValue("compute_instance.first", tfjsonpath.New("state"), knownvalue.StringExact("running")),
			statecheck.ExpectKnownValue("compute_provider_account.demo", tfjsonpath.New("health").AtMapKey("reachable"), knownvalue.Bool(true)),
		},
	},
	"guides/getting-started/hetzner-cloud.tf": {
		plan: creates("compute_provider_account.cloud", "compute_instance.web"),
	},
	"guides/getting-started/hetzner-robot.tf": {
		metal:   true,
		prepare: pointGuideAtMetal,
		plan:    creates("compute_provider_account.metal", "compute_bootstrap_host.db"),
	},
	"guides/getting-started/proxmox.tf": {
		plan: creates("compute_provider_account.lab", "compute_instance.vm"),
	},

	// One server made outside Terraform, imported by its id: the apply
	// writes only the mark, and the plan after it is empty.
	"guides/importing-a-fleet/import-one.tf": {
		apply: true,
		setup: func(t *testing.T, w *guideWorld) {
			id, err := w.e.createServer(t.Context(), "legacy-1", nil)
			if err != nil {
				t.Fatal(err)
			}
			w.values["MACHINE_ID"] = fmt.Sprint(id)
		},
		prepare: func(t *testing.T, w *guideWorld, hcl string) string {
			return replaceOnce(t, pointGuideAtEmulator(t, hcl, w.e), `}/4711"`, `}/${MACHINE_ID}"`)
		},
		plan: []plancheck.PlanCheck{
			expectImport{"compute_instance.legacy"},
			// Nothing but the provider's mark is written.
			plancheck.ExpectResourceAction("compute_instance.legacy", plancheck.ResourceActionUpdate),
		},
	},

	"guides/bootstrapping/host.tf": {
		metal:   true,
		prepare: pointGuideAtMetal,
		plan:    creates("compute_provider_account.metal", "compute_bootstrap_host.node"),
	},

	"guides/secrets/references.tf": {
		vars: config.Variables{"hcloud_token": config.StringVariable(emulatorToken)},
		plan: creates("compute_provider_account.from_env", "compute_provider_account.from_file", "compute_provider_account.from_provider"),
	},
	"guides/secrets/write-only.tf": {
		vars: config.Variables{"cloud_init": config.StringVariable("#cloud-config\npackages: [nginx]\n")},
		plan: creates("compute_instance.worker"),
	},

	// The cheapest offer across a Proxmox cluster and a Hetzner Cloud
	// project: the Proxmox flavor, which costs nothing.
	"guides/offers/cheapest.tf": {
		apply: true,
		plan:  creates("compute_instance.app"),
		state: []statecheck.StateCheck{
			statecheck.ExpectKnownOutputValue("app", knownvalue.ObjectExact(map[string]knownvalue.Check{
				"account": knownvalue.StringRegexp(regexp.MustCompile(`"kind":"proxmox"`)),
				"offer":   knownvalue.StringExact("small"),
			})),
			statecheck.ExpectKnownOutputValue("cheapest_priced", knownvalue.ObjectPartial(map[string]knownvalue.Check{
				"currency": knownvalue.StringExact("EUR"),
			})),
		},
	},
	"guides/offers/metal.tf": {
		apply: true,
		state: []statecheck.StateCheck{
			statecheck.ExpectKnownValue("data.compute_offers.db", tfjsonpath.New("offers"), knownvalue.NotNull()),
			// The emulated catalog has no GPUs.
			statecheck.ExpectKnownOutputValue("gpu_offers", knownvalue.ListSizeExact(0)),
		},
	},

	"guides/opentofu/main.tf": {
		plan: creates("compute_provider_account.cloud", "compute_instance.web"),
	},

	"guides/proxmox/account.tf": {
		plan: creates("compute_provider_account.lab", "compute_instance.web"),
	},
	"guides/proxmox/snippets.tf": {
		plan: creates("compute_provider_account.lab", "compute_instance.web"),
	},
}

// pointGuideAtMetal points a Robot example at the test's dedicated-server
// world, as pointAtMetal does for the resource example.
func pointGuideAtMetal(t *testing.T, w *guideWorld, hcl string) string {
	return withSource(pointAtMetal(t, hcl, w.m, w.server))
}

// replaceOnce replaces the one occurrence of old, failing the test when the
// example has none or several, so a drifted example cannot run as something
// else.
func replaceOnce(t *testing.T, hcl, old, replacement string) string {
	t.Helper()
	if n := strings.Count(hcl, old); n != 1 {
		t.Fatalf("the example holds %q %d times, want once", old, n)
	}
	return strings.Replace(hcl, old, replacement, 1)
}
