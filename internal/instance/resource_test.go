package instance_test

import (
	"fmt"
	"maps"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// TestInstanceLifecycle creates a machine, verifies its import, switches its
// power in place, renames and relabels it, and destroys it. It runs against
// any target (see acctest.NewTarget): what it asks of the machine, it asks
// the API; only the user data check needs the in-process emulator.
func TestInstanceLifecycle(t *testing.T) {
	t.Parallel()
	tg := acctest.NewTarget(t)
	web1, web2 := tg.Name("web-1"), tg.Name("web-2")
	const userData = "#cloud-config\nruncmd: [echo hello]\n"
	ud := fmt.Sprintf("user_data = %q", userData)
	machine := func(name string, check func(adapter.Machine) bool) func(*terraform.State) error {
		return func(*terraform.State) error {
			m, err := tg.Machine(name)
			if err != nil {
				return err
			}
			if !check(m) {
				return fmt.Errorf("machine %s: %+v", name, m)
			}
			return nil
		}
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             tg.CheckDestroy,
		Steps: []resource.TestStep{
			{
				Config: targetInstance(tg, web1, nil, ud),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("location"), knownvalue.StringExact(tg.Location)),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("user_data_sha256"), knownvalue.StringExact(sha(userData))),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("power"), knownvalue.StringExact("on")),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("labels"), knownvalue.MapExact(map[string]knownvalue.Check{acctest.SweepLabel: knownvalue.StringExact(acctest.SweepValue)})),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("managed"), knownvalue.Bool(true)),
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("id")),
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("ipv4_address")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^\d+$`))),
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
					tg.CheckMachines(1),
					machine(web1, func(m adapter.Machine) bool { return m.Managed && m.Key != "" }),
					func(*terraform.State) error {
						e := tg.Emulator()
						if e == nil {
							return nil // only the emulator shows user data
						}
						if s, ok := e.ServerNamed(web1); !ok || s.UserData != userData || s.Labels[markPrefix+"managed"] != "true" {
							return fmt.Errorf("server %s lacks its user data or mark: %+v", web1, s)
						}
						return nil
					},
				),
			},
			{
				Config: targetInstance(tg, web1, nil, ud),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
			},
			{
				ResourceName:            addr,
				ImportState:             true,
				ImportStateIdFunc:       acctest.ImportID(addr),
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"user_data", "user_data_sha256", "timeouts"},
			},
			{
				Config: targetInstance(tg, web1, nil, ud, `power = "off"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("power"), knownvalue.StringExact("off")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("state"), knownvalue.StringExact("stopped")),
				},
				Check: machine(web1, func(m adapter.Machine) bool { return m.RawState == "off" }),
			},
			{
				Config: targetInstance(tg, web2, map[string]string{"team": "edge"}, ud, `power = "on"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact(web2)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("labels"), knownvalue.MapExact(map[string]knownvalue.Check{
						"team": knownvalue.StringExact("edge"), acctest.SweepLabel: knownvalue.StringExact(acctest.SweepValue),
					})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("state"), knownvalue.StringExact("running")),
				},
				Check: machine(web2, func(m adapter.Machine) bool {
					return maps.Equal(m.Labels, map[string]string{"team": "edge", acctest.SweepLabel: acctest.SweepValue}) && m.Managed && m.RawState == "running"
				}),
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
			ExpectError: acctest.Match(`on terraform_plugin_test.tf line \d+, in resource "compute_instance" "web":.*offer_id = "cx99".*Offer "cx99" does not exist in fsn1; available: .*cx22`),
		}},
	})
	if n := e.Stats()["POST /servers"]; n != 0 {
		t.Fatalf("%d creates reached the API; the plan should have stopped them", n)
	}
}
