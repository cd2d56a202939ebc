package instance_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
)

// TestInstanceCreateRetriesTransient: a create the API answers 503 twice is
// retried and succeeds with one machine.
func TestInstanceCreateRetriesTransient(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             e.CheckDestroy,
		Steps: []resource.TestStep{{
			PreConfig: func() { e.FailNext("POST", "/servers", 2, 503, "unavailable") },
			Config:    instance(e, "retry-1"),
			Check:     checkServers(e, 1),
		}},
	})
}

// TestInstanceCreateGivesUp: a create that keeps failing transiently is
// retried until the create timeout, and the error says what was retried.
// How many attempts fit in the timeout depends on the machine; the
// message holds for any count, and the timeout leaves a loaded machine
// ample room for the first look-up and POST.
func TestInstanceCreateGivesUp(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			PreConfig: func() { e.FailNext("POST", "/servers", 100000, 503, "unavailable") },
			Config: instance(e, "flaky-1", `timeouts {
    create = "10s"
  }`),
			ExpectError: acctest.Match(`Unable to create instance.*Create machine "flaky-1": retried for \d+s \(\d+ attempt`),
		}},
	})
	// A Check in a step that expects an error never runs; ask the emulator
	// afterwards.
	if live := e.Live(); len(live) != 0 {
		t.Errorf("a create refused with 503 throughout left servers %+v", live)
	}
}

// TestInstanceWaitFailureTaints: the machine is created but the wait for it
// fails; it stays in state, tainted, and the next apply replaces it.
func TestInstanceWaitFailureTaints(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	cfg := instance(e, "taint-1")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             e.CheckDestroy,
		Steps: []resource.TestStep{
			{
				PreConfig: func() {
					// The create's look-up by key passes; the wait's shared
					// listings and the direct read they fall back on fail.
					mustRule(t, e, faults.Rule{Method: "GET", Path: "/servers", Count: 1, DelayIfConnected: faults.Duration(time.Millisecond)})
					mustRule(t, e, faults.Rule{Method: "GET", Path: "/servers", Count: 1000, Status: 403, Code: "forbidden"})
					e.FailNext("GET", "/servers/{id}", 1000, 403, "forbidden")
				},
				Config:      cfg,
				ExpectError: acctest.Match(`Machine \d+ \("taint-1"\) was created but did not become running`),
			},
			{
				PreConfig: func() { e.Faults().Clear() },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: checkServers(e, 1),
			},
		},
	})
}

// TestInstanceRefreshSharesListing: refreshing several instances of one
// account costs one listing and no per-machine reads.
func TestInstanceRefreshSharesListing(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	cfg := e.Account() + `
resource "compute_instance" "many" {
  count    = 5
  account  = compute_provider_account.test.id
  name     = "many-${count.index}"
  offer_id = "cx22"
  image    = "ubuntu-24.04"
}
`
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             e.CheckDestroy,
		Steps: []resource.TestStep{
			{Config: cfg, Check: checkServers(e, 5)},
			{
				PreConfig:    e.ResetStats,
				RefreshState: true,
				Check: func(*terraform.State) error {
					st := e.Stats()
					if st["GET /servers"] != 1 || st["GET /servers/{id}"] != 0 {
						return fmt.Errorf("refreshing 5 instances cost %d listings and %d single reads, want 1 and 0 (%v)",
							st["GET /servers"], st["GET /servers/{id}"], st)
					}
					return nil
				},
			},
		},
	})
}
