package instance_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// scaledClock waits a hundredth of every delay, uncapped, unlike
// acctest.FastClock: a shutdown_timeout keeps its proportion to the polls,
// so a guest that honours ACPI is off well inside the default 1m (600ms
// here), while a 2s bound passes after 20ms.
type scaledClock struct{ acctest.FastClock }

func (scaledClock) After(d time.Duration) <-chan time.Time { return time.After(d / 100) }

func scaledFactories() map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"compute": providerserver.NewProtocol6WithError(provider.New("test", provider.WithClock(scaledClock{}))()),
	}
}

// powerCalls counts the power actions the API received.
func powerCalls(e *acctest.Emulator) map[string]int {
	out := map[string]int{}
	for _, a := range []string{"poweron", "poweroff", "shutdown", "reboot", "reset"} {
		out[a] = e.Stats()["POST /servers/{id}/actions/"+a]
	}
	return out
}

// wantCalls compares the power actions sent since the last ResetStats, and
// the restarts the guest went through, with what the step expects.
func wantCalls(e *acctest.Emulator, name string, want map[string]int, restarts int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		got := powerCalls(e)
		for a, n := range got {
			if n != want[a] {
				return fmt.Errorf("power actions sent %v, want %v", got, want)
			}
		}
		if s, _ := e.ServerNamed(name); s.Restarts != restarts {
			return fmt.Errorf("server %s restarted %d times, want %d", name, s.Restarts, restarts)
		}
		return nil
	}
}

func actions(names ...string) knownvalue.Check {
	checks := make([]knownvalue.Check, len(names))
	for i, n := range names {
		checks[i] = knownvalue.StringExact(n)
	}
	return knownvalue.ListExact(checks)
}

// TestInstanceGracefulPowerOff: power = "off" asks the guest to shut down and
// needs no hard poweroff when it honours the request; available_actions
// follows the machine's state.
func TestInstanceGracefulPowerOff(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: scaledFactories(),
		CheckDestroy:             e.CheckDestroy,
		Steps: []resource.TestStep{
			{
				Config: instance(e, "calm-1"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("shutdown_timeout"), knownvalue.StringExact("1m")),
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("available_actions")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("available_actions"), actions("power_off", "shutdown", "reboot", "reset")),
				},
			},
			{
				PreConfig: e.ResetStats,
				Config:    instance(e, "calm-1", `power = "off"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("available_actions")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("state"), knownvalue.StringExact("stopped")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("available_actions"), actions("power_on")),
				},
				Check: wantCalls(e, "calm-1", map[string]int{"shutdown": 1}, 0),
			},
			{
				ResourceName:            addr,
				ImportState:             true,
				ImportStateIdFunc:       acctest.ImportID(addr),
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"user_data", "user_data_sha256", "timeouts", "triggers_restart"},
			},
			{
				// Refreshed while off, the plan is empty.
				Config:           instance(e, "calm-1", `power = "off"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// TestInstanceShutdownTimeoutZeroCutsAtOnce: "0s" powers off without asking.
func TestInstanceShutdownTimeoutZeroCutsAtOnce(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: scaledFactories(),
		CheckDestroy:             e.CheckDestroy,
		Steps: []resource.TestStep{
			{Config: instance(e, "hard-1", `shutdown_timeout = "0s"`)},
			{
				PreConfig: e.ResetStats,
				Config:    instance(e, "hard-1", `shutdown_timeout = "0s"`, `power = "off"`),
				Check:     wantCalls(e, "hard-1", map[string]int{"poweroff": 1}, 0),
			},
		},
	})
}

// TestInstanceShutdownIgnoredFallsBack: a guest that ignores ACPI is asked
// once, and its power is cut once the 2s bound has passed.
func TestInstanceShutdownIgnoredFallsBack(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: scaledFactories(),
		CheckDestroy:             e.CheckDestroy,
		Steps: []resource.TestStep{
			// A short update timeout, so a bound that never passes fails fast.
			{Config: instance(e, "deaf-1", `shutdown_timeout = "2s"`, `timeouts { update = "20s" }`)},
			{
				PreConfig: func() {
					s, _ := e.ServerNamed("deaf-1")
					e.SetIgnoresACPI(s.ID, true)
					e.ResetStats()
				},
				Config: instance(e, "deaf-1", `shutdown_timeout = "2s"`, `timeouts { update = "20s" }`, `power = "off"`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("state"), knownvalue.StringExact("stopped")),
				},
				Check: func(*terraform.State) error {
					// A poweroff sent while the ignored shutdown still locks
					// the server is refused and sent again.
					if c := powerCalls(e); c["shutdown"] != 1 || c["poweroff"] < 1 || c["reboot"]+c["reset"]+c["poweron"] != 0 {
						return fmt.Errorf("power actions %v, want one shutdown and then poweroff", c)
					}
					if s := server(t, e, "deaf-1"); s.Status != "off" {
						return fmt.Errorf("server %s after the fallback, want off", s.Status)
					}
					return nil
				},
			},
		},
	})
}

// TestInstanceTriggersRestart: a change of triggers_restart reboots the
// running machine in place, once; setting, removing, or changing it while
// the machine is off restarts nothing and records the values.
func TestInstanceTriggersRestart(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	// A bound far above what an honoured reboot takes, so a loaded machine
	// does not reset instead.
	triggers := func(v string) string {
		return fmt.Sprintf("shutdown_timeout = \"5m\"\n  triggers_restart = { config = %q }", v)
	}
	none := map[string]int{}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: scaledFactories(),
		CheckDestroy:             e.CheckDestroy,
		Steps: []resource.TestStep{
			{Config: instance(e, "boot-1", `shutdown_timeout = "5m"`)},
			{
				// Set for the first time: recorded, nothing restarted.
				PreConfig: e.ResetStats,
				Config:    instance(e, "boot-1", triggers("v1")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				Check: wantCalls(e, "boot-1", none, 0),
			},
			{
				PreConfig: e.ResetStats,
				Config:    instance(e, "boot-1", triggers("v2")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("ipv4_address"), knownvalue.NotNull()),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("triggers_restart"), knownvalue.MapExact(map[string]knownvalue.Check{"config": knownvalue.StringExact("v2")})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("state"), knownvalue.StringExact("running")),
				},
				Check: resource.ComposeAggregateTestCheckFunc(wantCalls(e, "boot-1", map[string]int{"reboot": 1}, 1), checkServers(e, 1)),
			},
			{
				ResourceName:      addr,
				ImportState:       true,
				ImportStateIdFunc: acctest.ImportID(addr),
				ImportStateVerify: true,
				// Settings of the provider's, not the machine's: an import
				// records the default shutdown_timeout and no triggers.
				ImportStateVerifyIgnore: []string{"user_data", "user_data_sha256", "timeouts", "triggers_restart", "shutdown_timeout"},
			},
			{
				Config: instance(e, "boot-1", triggers("v2"), `power = "off"`),
			},
			{
				// Off: a restart does nothing but keep the values.
				PreConfig: e.ResetStats,
				Config:    instance(e, "boot-1", triggers("v3"), `power = "off"`),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("triggers_restart"), knownvalue.MapExact(map[string]knownvalue.Check{"config": knownvalue.StringExact("v3")})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("state"), knownvalue.StringExact("stopped")),
				},
				Check: wantCalls(e, "boot-1", none, 1),
			},
			{
				// Switched on with new values: it boots afresh, no restart.
				PreConfig: e.ResetStats,
				Config:    instance(e, "boot-1", triggers("v4")),
				Check:     wantCalls(e, "boot-1", map[string]int{"poweron": 1}, 1),
			},
			{
				PreConfig: e.ResetStats,
				Config:    instance(e, "boot-1", `shutdown_timeout = "5m"`),
				Check:     wantCalls(e, "boot-1", none, 1),
			},
		},
	})
}

// TestInstancePowerSettingsAtPlan: shutdown_timeout is checked at plan, on
// the attribute, before anything is created.
func TestInstancePowerSettingsAtPlan(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	steps := []resource.TestStep{}
	for _, c := range []struct{ extra, want string }{
		{`shutdown_timeout = "-5s"`, `shutdown_timeout = "-5s" is negative.*"0s" not to wait at all`},
		{`shutdown_timeout = "soon"`, `shutdown_timeout = "soon" is not a duration`},
		{`shutdown_timeout = "10m"`, `shutdown_timeout = "10m" is not shorter than timeouts.update \(10m\).*Lower shutdown_timeout`},
		{"shutdown_timeout = \"3m\"\n  power = \"off\"\n  timeouts { create = \"2m\" }", `shutdown_timeout = "3m" is not shorter than timeouts.create \(2m\)`},
	} {
		steps = append(steps, resource.TestStep{Config: instance(e, "plan-1", c.extra), PlanOnly: true, ExpectError: acctest.Match(c.want)})
	}
	resource.UnitTest(t, resource.TestCase{ProtoV6ProviderFactories: scaledFactories(), Steps: steps})
	if n := e.Stats()["POST /servers"]; n != 0 {
		t.Fatalf("%d creates reached the API; the plan should have stopped them", n)
	}
}

// TestInstanceRestartRefusedAtPlan: an adapter that cannot restart refuses
// a change of triggers_restart at plan, on the attribute; setting the
// values for the first time is no restart and is accepted.
func TestInstanceRestartRefusedAtPlan(t *testing.T) {
	t.Parallel()
	b := &basic{machines: map[string]adapter.Machine{}}
	cfg := func(triggers string) string {
		return `
resource "compute_provider_account" "test" {
  name  = "basic"
  basic = { token = "env://` + acctest.TokenEnv + `" }
}
resource "compute_instance" "web" {
  account          = compute_provider_account.test.id
  name             = "web-1"
  offer_id         = "small"
  image            = "plain"
  triggers_restart = ` + triggers + `
}
`
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: basicFactories(b),
		Steps: []resource.TestStep{
			{Config: cfg(`{ config = "v1" }`)},
			{
				Config:      cfg(`{ config = "v2" }`),
				PlanOnly:    true,
				ExpectError: acctest.Match(`Unable to restart machine.*triggers_restart changes, which restarts the machine in place, but the basic adapter cannot restart machines.*replace_triggered_by`),
			},
			{
				Config:           cfg(`null`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)}},
			},
		},
	})
}
