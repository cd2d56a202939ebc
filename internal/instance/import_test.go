package instance_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// TestInstanceImportBlockMarks imports a server the provider did not create
// through an import block: the plan imports it and writes the mark in place,
// and afterwards it is managed like any other.
func TestInstanceImportBlockMarks(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	id := e.AddServer(emu.Server{Name: "legacy", Labels: map[string]string{"owner": "ops"}})
	cfg := e.Account() + fmt.Sprintf(`
import {
  to = compute_instance.web
  id = "${compute_provider_account.test.id}/%d"
}

resource "compute_instance" "web" {
  account  = compute_provider_account.test.id
  name     = "legacy"
  offer_id = "cx22"
  image    = "ubuntu-24.04"
  labels   = { owner = "ops" }
}
`, id)
	withUserData := func(ud string) string {
		return strings.Replace(cfg, `labels   = { owner = "ops" }`, fmt.Sprintf("labels   = { owner = \"ops\" }\n  user_data = %q", ud), 1)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             e.CheckDestroy,
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("managed"), knownvalue.Bool(true)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("managed"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("user_data_sha256"), knownvalue.Null()),
				},
				Check: func(*terraform.State) error {
					s, _ := e.Server(id)
					if s.Labels[markPrefix+"managed"] != "true" || s.Labels[markPrefix+"key"] == "" || s.Labels["owner"] != "ops" {
						return fmt.Errorf("server %d after the first apply: labels %v, want the mark and owner=ops", id, s.Labels)
					}
					if s.Labels[markPrefix+"claim"] == "" {
						return fmt.Errorf("server %d after the first apply: labels %v, want this state's claim", id, s.Labels)
					}
					return nil
				},
			},
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
			},
			{
				// The user data an imported machine was created with is
				// unknown: writing it down records its digest in place.
				Config: withUserData("#cloud-config\n"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("user_data_sha256"), knownvalue.StringExact(sha("#cloud-config\n"))),
				},
				Check: func(*terraform.State) error {
					if _, ok := e.Server(id); !ok {
						return fmt.Errorf("server %d was replaced", id)
					}
					return nil
				},
			},
			{
				// From then on, other user data is another machine.
				Config: withUserData("#cloud-config\nhostname: legacy\n"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: checkServers(e, 1),
			},
		},
	})
}

// TestInstanceImportGeneratedConfig imports a managed machine into a new
// address with terraform plan -generate-config-out: the generated
// configuration plans clean.
func TestInstanceImportGeneratedConfig(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             e.CheckDestroy,
		Steps: []resource.TestStep{
			{Config: instance(e, "gen-1", `labels = { app = "web" }`, `power = "off"`)},
			{
				Config:            e.Account(),
				ResourceName:      addr,
				ImportState:       true,
				ImportStateKind:   resource.ImportBlockWithID,
				ImportStateIdFunc: acctest.ImportID(addr),
				GenerateConfig:    true,
				ImportPlanChecks: resource.ImportPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction("compute_instance.generated", plancheck.ResourceActionNoop),
				}},
			},
			{Config: instance(e, "gen-1", `labels = { app = "web" }`, `power = "off"`)},
		},
	})
}

// TestInstanceInterruptedCreate loses the answer to a create that the API
// committed, then fails the look-ups that would find it, so the apply fails
// with nothing in state. Applying the same configuration again adopts the
// machine by its key instead of creating a second one.
func TestInstanceInterruptedCreate(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	cfg := instance(e, "once-1")
	var createsBefore int
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             e.CheckDestroy,
		Steps: []resource.TestStep{
			{
				PreConfig:   func() { interruptCreate(t, e) },
				Config:      cfg,
				ExpectError: acctest.Match(`Unable to create instance.*once-1`),
			},
			{
				PreConfig: func() {
					if n := len(e.Live()); n != 1 {
						t.Fatalf("the first apply should have left one committed server, found %d", n)
					}
					createsBefore = e.Stats()["POST /servers"]
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					checkServers(e, 1),
					func(*terraform.State) error {
						if n := e.Stats()["POST /servers"] - createsBefore; n != 0 {
							return fmt.Errorf("the second apply sent %d creates, want none: it should adopt the committed server", n)
						}
						return nil
					},
				),
			},
		},
	})
}

// interruptCreate makes the next create fail with nothing in state although
// the API committed it: the look-up before the create passes; the create is
// committed and its answer lost; the look-ups after it are refused, which is
// not retried.
func interruptCreate(t *testing.T, e *acctest.Emulator) {
	mustRule(t, e, faults.Rule{Method: "GET", Path: "/servers", Count: 1, DelayThenCommit: faults.Duration(time.Millisecond)})
	e.DropNext("POST", "/servers", 1)
	e.FailNext("GET", "/servers", 2, 403, "forbidden")
}

func mustRule(t *testing.T, e *acctest.Emulator, r faults.Rule) {
	t.Helper()
	if err := e.Faults().AddRule(r); err != nil {
		t.Fatalf("add fault rule: %v", err)
	}
}

// TestInstanceInterruptedCreateMatchesPower: the machine an interrupted
// apply left running is adopted by an apply that now asks for power = "off",
// and is switched off instead of timing out the wait.
func TestInstanceInterruptedCreateMatchesPower(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             e.CheckDestroy,
		Steps: []resource.TestStep{
			{
				PreConfig:   func() { interruptCreate(t, e) },
				Config:      instance(e, "pow-1"),
				ExpectError: acctest.Match(`Unable to create instance.*pow-1`),
			},
			{
				Config: instance(e, "pow-1", `power = "off"`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("power"), knownvalue.StringExact("off")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("state"), knownvalue.StringExact("stopped")),
				},
				Check: resource.ComposeAggregateTestCheckFunc(checkServers(e, 1), func(*terraform.State) error {
					if s, _ := e.ServerNamed("pow-1"); s.Status != "off" {
						return fmt.Errorf("server pow-1 is %q, want off", s.Status)
					}
					return nil
				}),
			},
		},
	})
}
