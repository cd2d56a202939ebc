package machines_test

import (
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/compare"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// names checks a machines list by name, in order.
func names(want ...string) knownvalue.Check {
	checks := make([]knownvalue.Check, len(want))
	for i, n := range want {
		checks[i] = knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.StringExact(n)})
	}
	return knownvalue.ListExact(checks)
}

func listed(ds string, want knownvalue.Check) statecheck.StateCheck {
	return statecheck.ExpectKnownValue("data.compute_machines."+ds, tfjsonpath.New("machines"), want)
}

// TestMachinesManagedAndDiscovered: one machine created by compute_instance
// and two created outside it. Each filter keeps what it says, the managed
// flag tells them apart, and every attribute of a discovered machine is
// what the backend holds.
func TestMachinesManagedAndDiscovered(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	created := time.Date(2024, 5, 17, 8, 30, 0, 0, time.UTC)
	legacy := e.AddServer(emu.Server{Name: "legacy", Status: "off", Labels: map[string]string{"role": "web"}, Created: created})
	e.AddServer(emu.Server{Name: "zz-db", Labels: map[string]string{"role": "db"}})
	instance := e.Account() + `
resource "compute_instance" "web" {
  account  = compute_provider_account.test.id
  name     = "web-1"
  offer_id = "cx22"
  image    = "ubuntu-24.04"
  labels   = { role = "web" }
}
`
	query := func(name, filters string) string {
		return fmt.Sprintf(`
data "compute_machines" %q {
  accounts = [compute_provider_account.test.id]
  %s
}
`, name, filters)
	}
	cfg := instance +
		query("all", ``) +
		query("managed", `managed = true`) +
		query("discovered", `managed = false`) +
		query("web", "managed = false\n  labels = { role = \"web\" }") +
		query("running", `states = ["running", "pending"]`) +
		query("stopped", `states = ["stopped"]`) +
		query("regex", `name_regex = "b-[0-9]$"`) +
		query("prefix", `name_prefix = "zz-"`) +
		query("none", `name_prefix = "nothing-"`)
	seeded, _ := e.Server(legacy)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy: func(*terraform.State) error {
			// Only web-1 is the provider's to destroy.
			if live := e.Live(); len(live) != 2 {
				return fmt.Errorf("after destroy the emulator holds %v, want legacy and zz-db", live)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{Config: instance},
			{
				Config: cfg,
				ConfigStateChecks: []statecheck.StateCheck{
					listed("all", names("legacy", "web-1", "zz-db")),
					listed("managed", names("web-1")),
					listed("discovered", names("legacy", "zz-db")),
					listed("running", names("web-1", "zz-db")),
					listed("stopped", names("legacy")),
					listed("regex", names("web-1")),
					listed("prefix", names("zz-db")),
					listed("none", knownvalue.ListExact([]knownvalue.Check{})),
					listed("web", knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(map[string]knownvalue.Check{
						"id":           knownvalue.StringRegexp(instanceID(legacy)),
						"machine_id":   knownvalue.StringExact(strconv.FormatInt(legacy, 10)),
						"account":      knownvalue.StringRegexp(accountID),
						"name":         knownvalue.StringExact("legacy"),
						"managed":      knownvalue.Bool(false),
						"state":        knownvalue.StringExact("stopped"),
						"raw_state":    knownvalue.StringExact("off"),
						"offer_id":     knownvalue.StringExact("cx22"),
						"image":        knownvalue.StringExact("ubuntu-24.04"),
						"location":     knownvalue.StringExact("fsn1"),
						"labels":       knownvalue.MapExact(map[string]knownvalue.Check{"role": knownvalue.StringExact("web")}),
						"ipv4_address": knownvalue.StringExact(seeded.IPv4),
						"ipv6_address": knownvalue.StringRegexp(firstHost),
						"created_at":   knownvalue.StringExact("2024-05-17T08:30:00Z"),
					})})),
					// The account is what compute_instance takes, machine_id its id.
					statecheck.CompareValuePairs("data.compute_machines.managed", tfjsonpath.New("machines").AtSliceIndex(0).AtMapKey("account"),
						"compute_provider_account.test", tfjsonpath.New("id"), compare.ValuesSame()),
					statecheck.CompareValuePairs("data.compute_machines.managed", tfjsonpath.New("machines").AtSliceIndex(0).AtMapKey("machine_id"),
						"compute_instance.web", tfjsonpath.New("id"), compare.ValuesSame()),
					statecheck.ExpectKnownValue("data.compute_machines.managed", tfjsonpath.New("machines").AtSliceIndex(0).AtMapKey("labels"),
						knownvalue.MapExact(map[string]knownvalue.Check{"role": knownvalue.StringExact("web")})),
				},
				Check: func(*terraform.State) error {
					// Listing is reading: nothing discovered gets marked.
					for _, s := range e.Servers() {
						if s.Name != "web-1" && s.Labels[mark] != "" {
							return fmt.Errorf("%s was marked by a read: %v", s.Name, s.Labels)
						}
					}
					return nil
				},
			},
		},
	})
}

// TestMachinesRideOutBackendFailures: an inventory the API answers 503 and
// then 429 is read on the third attempt.
func TestMachinesRideOutBackendFailures(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	e.AddServer(emu.Server{Name: "legacy"})
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: e.Account()},
			{
				PreConfig: func() {
					e.FailNext("GET", "/servers", 1, 503, "unavailable")
					e.FailNext("GET", "/servers", 1, 429, "rate_limit_exceeded")
				},
				Config: e.Account() + `
data "compute_machines" "all" {
  accounts = [compute_provider_account.test.id]
}
`,
				ConfigStateChecks: []statecheck.StateCheck{listed("all", names("legacy"))},
				Check:             e.FaultsUsedUp,
			},
		},
	})
}
