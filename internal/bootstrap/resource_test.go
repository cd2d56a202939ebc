package bootstrap_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

const addr = "compute_bootstrap_host.db"

// account is a metal_test account (or another block) with the test key.
func account(block string) string {
	return fmt.Sprintf(`
resource "compute_provider_account" "metal" {
  name = "metal"
  %s = {
    api_key = "env://%s"
  }
}
`, block, acctest.TokenEnv)
}

// hostConfig is the account plus compute_bootstrap_host.db with the given
// lines.
func hostConfig(lines ...string) string {
	return account("metal_test") + fmt.Sprintf(`
resource "compute_bootstrap_host" "db" {
  account  = compute_provider_account.metal.id
  hostname = "db-1"
  image    = "Ubuntu-2404-noble-amd64-base"
  %s
}
`, strings.Join(lines, "\n  "))
}

const firstBoot = `first_boot = {
    url     = "https://dl.example/agent"
    sha256  = "0000000000000000000000000000000000000000000000000000000000000000"
    command = ["/usr/local/bin/agent", "--serve"]
  }`

// released checks, against the backend, that machine id carries no claim.
func released(mt *metal, id string) func(*terraform.State) error {
	return func(*terraform.State) error {
		if s := mt.server(id); s.Managed || s.Claim != "" || s.Name != "" {
			return fmt.Errorf("machine %s still claimed after destroy: %+v", id, s.Machine)
		}
		if _, releases := mt.count(); releases == 0 {
			return fmt.Errorf("destroy released nothing")
		}
		return nil
	}
}

func installs(mt *metal, want int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got, _ := mt.count(); got != want {
			return fmt.Errorf("%d installs, want %d", got, want)
		}
		return nil
	}
}

// TestCreateFromMachineID claims the named machine, runs every phase and
// records what it learned; a second plan is empty, a change of
// ready_command is in place, and destroy releases the machine.
func TestCreateFromMachineID(t *testing.T) {
	t.Parallel()
	mt := newMetal()
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: metalServer(mt),
		CheckDestroy:             released(mt, "101"),
		Steps: []resource.TestStep{
			{
				Config: hostConfig(`machine_id = "101"`, firstBoot),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("phase"), knownvalue.StringExact("ready")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("ready"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("failed_phase"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("machine_id"), knownvalue.StringExact("101")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("known_hosts"), knownvalue.StringExact("127.0.9.1 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5install1")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("rescue_host_key"), knownvalue.StringExact("ED25519 SHA256:rescue101")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("product_uuid"), knownvalue.StringRegexp(regexp.MustCompile(`101$`))),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("ipv4"), knownvalue.StringExact("127.0.9.1")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^101$`))),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("claim"), knownvalue.StringRegexp(regexp.MustCompile(`^[0-9a-f]{32}$`))),
				},
				Check: resource.ComposeAggregateTestCheckFunc(installs(mt, 1), func(*terraform.State) error {
					if s := mt.server("101"); !s.Managed || s.Name != "db-1" {
						return fmt.Errorf("machine 101 not claimed as db-1: %+v", s.Machine)
					}
					return nil
				}),
			},
			{
				Config:           hostConfig(`machine_id = "101"`, firstBoot),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config: hostConfig(`machine_id = "101"`, firstBoot, `ready_command = ["/usr/bin/true"]`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("known_hosts"), knownvalue.StringExact("127.0.9.1 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5install1")),
				}},
				Check: installs(mt, 1),
			},
		},
	})
}

// TestCreateFromOffer takes the first free machine of the offer, shows it
// as machine_id, and releases it on destroy.
func TestCreateFromOffer(t *testing.T) {
	t.Parallel()
	mt := newMetal()
	mt.servers["101"].Name = "someone-else"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: metalServer(mt),
		CheckDestroy:             released(mt, "102"),
		Steps: []resource.TestStep{{
			Config: hostConfig(`offer_id = "ax41"`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("machine_id"), knownvalue.StringExact("102")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("phase"), knownvalue.StringExact("ready")),
			},
			Check: installs(mt, 1),
		}, {
			Config:           hostConfig(`offer_id = "ax41"`),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
		}},
	})
}
