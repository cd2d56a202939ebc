package instance_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
)

// failReads answers the next reads of servers, listing and direct alike,
// 503, 503 and 500: each refresh attempt (a listing, then a direct read)
// meets two of them, so only a retried read gets through.
func failReads(t *testing.T, e *acctest.Emulator) {
	mustRule(t, e, faults.Rule{Method: "GET", Path: "/servers*", Count: 2, Status: 503, Code: "unavailable"})
	mustRule(t, e, faults.Rule{Method: "GET", Path: "/servers*", Count: 1, Status: 500, Code: "server_error"})
}

// TestInstanceRefreshRidesOutBackendFailures: a refresh that meets two 503s
// and a 500 retries and refreshes the machine, with nothing to change.
func TestInstanceRefreshRidesOutBackendFailures(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	cfg := instance(e, "steady-1")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             e.CheckDestroy,
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				PreConfig: func() { failReads(t, e) },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(e.FaultsUsedUp, checkServers(e, 1)),
			},
		},
	})
}

// TestInstanceRefreshNeverTurnsFailuresIntoGone: a backend that keeps
// failing fails the refresh once the read timeout is spent, saying what was
// retried, and keeps the machine in state: the plan after the outage has
// nothing to create.
func TestInstanceRefreshNeverTurnsFailuresIntoGone(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	// A short delete timeout too: should the test fail with the outage
	// still scripted, its destroy gives up soon.
	cfg := instance(e, "outage-1", `timeouts {
    read   = "2s"
    delete = "10s"
  }`)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             e.CheckDestroy,
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				PreConfig: func() {
					mustRule(t, e, faults.Rule{Method: "GET", Path: "/servers*", Status: 503, Code: "unavailable"})
				},
				Config:      cfg,
				ExpectError: acctest.Match(`Unable to read instance.*the state is kept as it was.*Read machine \d+: retried for \d+s \(\d+ attempt.*the Hetzner Cloud API failed \(HTTP 503 unavailable\)`),
			},
			{
				PreConfig: func() {
					if n := e.Stats()["GET /servers/{id}"]; n < 2 {
						t.Errorf("the failing refresh read the machine directly %d times, want it retried", n)
					}
					e.Faults().Clear()
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
			},
		},
	})
}

// TestInstanceImportRidesOutBackendFailures: the read that fills an
// imported instance retries two 503s and a 500 like a refresh.
func TestInstanceImportRidesOutBackendFailures(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	cfg := instance(e, "imp-1")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             e.CheckDestroy,
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				PreConfig:               func() { failReads(t, e) },
				Config:                  cfg,
				ResourceName:            addr,
				ImportState:             true,
				ImportStateIdFunc:       acctest.ImportID(addr),
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"user_data_sha256"},
				Check:                   e.FaultsUsedUp,
			},
		},
	})
}

// TestInstanceTimeoutsMustBePositive: a timeout of no time is refused at
// plan time on its attribute, before anything is created.
func TestInstanceTimeoutsMustBePositive(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	for _, tc := range []struct{ block, want string }{
		{"create = \"0s\"", `timeouts\.create = "0s" is not a positive duration.*or remove create to use the default \(10m\)`},
		{"read = \"-5m\"", `timeouts\.read = "-5m" is not a positive duration.*or remove read to use the default \(5m\)`},
	} {
		resource.UnitTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.Factories(),
			Steps: []resource.TestStep{{
				Config:      instance(e, "never-1", "timeouts {\n    "+tc.block+"\n  }"),
				PlanOnly:    true,
				ExpectError: acctest.Match(tc.want),
			}},
		})
	}
}

// TestInstanceUpdateRidesOutFailures: the read an update starts from and its
// write, which answers with the machine (there is no read-back), each retry
// two 503s.
func TestInstanceUpdateRidesOutFailures(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             e.CheckDestroy,
		Steps: []resource.TestStep{
			{Config: instance(e, "old-name")},
			{
				PreConfig: func() {
					mustRule(t, e, faults.Rule{Method: "GET", Path: "/servers/{id}", Count: 2, Status: 503, Code: "unavailable"})
					mustRule(t, e, faults.Rule{Method: "PUT", Path: "/servers/{id}", Count: 2, Status: 503, Code: "unavailable"})
				},
				Config: instance(e, "new-name"),
				Check: resource.ComposeAggregateTestCheckFunc(e.FaultsUsedUp, func(*terraform.State) error {
					if _, ok := e.ServerNamed("new-name"); !ok {
						return fmt.Errorf("no server named new-name: %+v", e.Servers())
					}
					return nil
				}),
			},
		},
	})
}
