package bootstrap_test

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
	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// TestFailedPhaseThenRerun: a phase fails, the host stays in state with
// phase failed (tainted), and the rerun after the fault is cleared replaces
// it by claiming the same machine again by its key and resuming: an
// installer that failed installs once, a reboot that ran out of time does
// not install again.
func TestFailedPhaseThenRerun(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		phase adapter.Phase
		code  adapter.Code
		// installsBefore is the installs the failed apply did.
		installsBefore int
		wayOut         string
	}{
		{adapter.PhaseInstalling, adapter.InvalidState, 0, "The installer or the first boot failed: fix the cause"},
		{adapter.PhaseRebooting, adapter.Transient, 1, "raise that phase's timeout"},
	} {
		t.Run(string(c.phase), func(t *testing.T) {
			t.Parallel()
			mt := newMetal()
			mt.fail(c.phase, c.code)
			config := hostConfig(`machine_id = "101"`, firstBoot)
			resource.UnitTest(t, resource.TestCase{
				ProtoV6ProviderFactories: metalServer(mt),
				CheckDestroy:             released(mt, "101"),
				Steps: []resource.TestStep{
					{
						Config:      config,
						ExpectError: acctest.Match(fmt.Sprintf(`Host "db-1" \(machine 101\) stopped in phase %s\. It is saved in state with phase failed\..*%s.*[Tt]he %s phase failed as the test asked`, c.phase, c.wayOut, c.phase)),
					},
					{
						PreConfig: func() {
							if got, _ := mt.count(); got != c.installsBefore {
								t.Errorf("the failed apply installed %d times, want %d", got, c.installsBefore)
							}
							if s := mt.server("101"); !s.Managed || s.Name != "db-1" {
								t.Errorf("the failed apply left machine 101 unclaimed: %+v", s.Machine)
							}
							mt.fail("", "")
						},
						RefreshState:       true,
						ExpectNonEmptyPlan: true,
						Check: resource.ComposeAggregateTestCheckFunc(
							resource.TestCheckResourceAttr(addr, "phase", "failed"),
							resource.TestCheckResourceAttr(addr, "failed_phase", string(c.phase)),
							resource.TestCheckResourceAttr(addr, "reason", fmt.Sprintf("the %s phase failed as the test asked", c.phase)),
							resource.TestCheckResourceAttr(addr, "machine_id", "101"),
							resource.TestCheckResourceAttr(addr, "ready", "false"),
						),
					},
					{
						Config: config,
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction(addr, plancheck.ResourceActionDestroyBeforeCreate),
						}},
						ConfigStateChecks: []statecheck.StateCheck{
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("phase"), knownvalue.StringExact("ready")),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("failed_phase"), knownvalue.Null()),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("machine_id"), knownvalue.StringExact("101")),
							statecheck.ExpectKnownValue(addr, tfjsonpath.New("known_hosts"), knownvalue.StringExact("127.0.9.1 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5install1")),
						},
						Check: installs(mt, 1),
					},
				},
			})
		})
	}
}

// TestImportTakesTheHostAsItIs: a machine installed outside Terraform is
// imported by ACCOUNT_ID/MACHINE_ID as phase ready, the first apply records
// the configuration in place (no replacement, no install) and writes the
// mark with a claim, and destroy releases it.
func TestImportTakesTheHostAsItIs(t *testing.T) {
	t.Parallel()
	mt := newMetal()
	mt.servers["103"].Name = "db-1"
	config := hostConfig(`machine_id = "103"`, firstBoot)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: metalServer(mt),
		CheckDestroy:             released(mt, "103"),
		Steps: []resource.TestStep{
			{Config: account("metal_test")},
			{
				Config:       config,
				ResourceName: addr,
				ImportState:  true,
				ImportStateIdFunc: func(s *terraform.State) (string, error) {
					return s.RootModule().Resources["compute_provider_account.metal"].Primary.ID + "/103", nil
				},
				ImportStatePersist: true,
				ImportStateCheck: func(states []*terraform.InstanceState) error {
					for _, st := range states {
						if st.Attributes["machine_id"] == "103" && st.Attributes["phase"] == "ready" && st.Attributes["hostname"] == "db-1" {
							return nil
						}
					}
					return fmt.Errorf("imported %+v, want machine 103 with phase ready and hostname db-1", states)
				},
			},
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("phase"), knownvalue.StringExact("ready")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("image"), knownvalue.StringExact("Ubuntu-2404-noble-amd64-base")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("claim"), knownvalue.StringRegexp(regexp.MustCompile(`^[0-9a-f]{32}$`))),
				},
				Check: resource.ComposeAggregateTestCheckFunc(installs(mt, 0), func(*terraform.State) error {
					if s := mt.server("103"); !s.Managed || s.Claim == "" {
						return fmt.Errorf("the first apply after the import wrote no mark: %+v", s.Machine)
					}
					return nil
				}),
			},
			{
				Config:           config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}
