package instance_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestInstanceLifecycle creates a machine, verifies its import, switches its
// power in place, renames and relabels it, and destroys it.
func TestInstanceLifecycle(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	const userData = "#cloud-config\nruncmd: [echo hello]\n"
	ud := fmt.Sprintf("user_data = %q", userData)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             e.CheckDestroy,
		Steps: []resource.TestStep{
			{
				Config: instance(e, "web-1", ud),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("location"), knownvalue.StringExact("fsn1")),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("user_data_sha256"), knownvalue.StringExact(sha(userData))),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("power"), knownvalue.StringExact("on")),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("labels"), knownvalue.MapSizeExact(0)),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("managed"), knownvalue.Bool(true)),
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("id")),
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("ipv4_address")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^hcloud:.*/\d+$`))),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("state"), knownvalue.StringExact("running")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("raw_state"), knownvalue.StringExact("running")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("power"), knownvalue.StringExact("on")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("managed"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("user_data"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("ipv4_address"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("ipv6_address"), knownvalue.NotNull()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("created_at"), knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-`))),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkServers(e, 1),
					func(*terraform.State) error {
						s, ok := e.ServerNamed("web-1")
						if !ok || s.UserData != userData || s.Labels[markPrefix+"managed"] != "true" {
							return fmt.Errorf("server web-1 lacks its user data or mark: %+v", s)
						}
						return nil
					},
				),
			},
			{
				Config: instance(e, "web-1", ud),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
			},
			{
				ResourceName:            addr,
				ImportState:             true,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"user_data", "user_data_sha256", "timeouts"},
			},
			{
				Config: instance(e, "web-1", ud, `power = "off"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("power"), knownvalue.StringExact("off")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("state"), knownvalue.StringExact("stopped")),
				},
				Check: func(*terraform.State) error {
					if s, _ := e.ServerNamed("web-1"); s.Status != "off" {
						return fmt.Errorf("server status %q, want off", s.Status)
					}
					return nil
				},
			},
			{
				Config: instance(e, "web-2", ud, `power = "on"`, `labels = { team = "edge" }`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact("web-2")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("labels"), knownvalue.MapExact(map[string]knownvalue.Check{"team": knownvalue.StringExact("edge")})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("state"), knownvalue.StringExact("running")),
				},
				Check: func(*terraform.State) error {
					s, ok := e.ServerNamed("web-2")
					if !ok || s.Labels["team"] != "edge" || s.Labels[markPrefix+"managed"] != "true" || s.Status != "running" {
						return fmt.Errorf("server after update: %+v", s)
					}
					return nil
				},
			},
		},
	})
}

// TestInstanceDrift changes the machine behind Terraform's back: the plan
// restores power and labels in place, and recreates a deleted machine.
func TestInstanceDrift(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	cfg := instance(e, "drift-1")
	server := func() int64 {
		s, ok := e.ServerNamed("drift-1")
		if !ok {
			t.Fatal("server drift-1 is missing")
		}
		return s.ID
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             e.CheckDestroy,
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				PreConfig: func() { e.SetServerStatus(server(), "off") },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("power"), knownvalue.StringExact("on")),
				}},
				Check: func(*terraform.State) error {
					if s, _ := e.ServerNamed("drift-1"); s.Status != "running" {
						return fmt.Errorf("server status %q after apply, want running", s.Status)
					}
					return nil
				},
			},
			{
				PreConfig: func() {
					s, _ := e.ServerNamed("drift-1")
					labels := map[string]string{"edited": "outside"}
					for k, v := range s.Labels {
						labels[k] = v
					}
					e.SetServerLabels(s.ID, labels)
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("labels"), knownvalue.MapSizeExact(0)),
				}},
				Check: func(*terraform.State) error {
					s, _ := e.ServerNamed("drift-1")
					if l := userLabels(s.Labels); len(l) != 0 || s.Labels[markPrefix+"managed"] != "true" {
						return fmt.Errorf("labels after apply: %v", s.Labels)
					}
					return nil
				},
			},
			{
				PreConfig: func() { e.RemoveServer(server()) },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
				}},
				Check: checkServers(e, 1),
			},
		},
	})
}

// TestInstanceUnknownOffer is refused at plan time, on offer_id, with the
// offers that do exist, before anything is created.
func TestInstanceUnknownOffer(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	cfg := e.Account() + `
resource "compute_instance" "web" {
  account  = compute_provider_account.test.id
  name     = "web-1"
  offer_id = "cx99"
  image    = "ubuntu-24.04"
}
`
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config:      cfg,
			PlanOnly:    true,
			ExpectError: acctest.Match(`on terraform_plugin_test.tf line \d+, in resource "compute_instance" "web":.*offer_id = "cx99".*offer "cx99" does not exist in fsn1; available: .*cx22`),
		}},
	})
	if n := e.Stats()["POST /servers"]; n != 0 {
		t.Fatalf("%d creates reached the API; the plan should have stopped them", n)
	}
}
