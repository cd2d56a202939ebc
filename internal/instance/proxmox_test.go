package instance_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestProxmoxInstanceLifecycle: one VM cloned from the template, running
// with the agent's address, its VMID in the account's range and tagged as
// ours; import verifies, the next plan is empty, destroy removes the VM.
func TestProxmoxInstanceLifecycle(t *testing.T) {
	t.Parallel()
	p := acctest.NewProxmox(t)
	cfg := p.Account() + p.Instance("web")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             p.CheckDestroy,
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr("compute_instance.web", "state", "running"),
					resource.TestMatchResourceAttr("compute_instance.web", "ipv4_address", acctest.Match(`^192\.0\.2\.`)),
					resource.TestCheckResourceAttr("compute_instance.web", "offer_id", "small"),
					func(s *terraform.State) error {
						vm, ok := p.Named("web")
						if !ok || vm.VMID < 100000 || vm.VMID > 199999 {
							return fmt.Errorf("VM web: %+v, want one VM with a VMID in 100000..199999", vm)
						}
						if tags := vm.Config["tags"]; !strings.Contains(tags, "compute") || strings.Contains(tags, "cm-new") {
							return fmt.Errorf("VM %d has tags %q, want compute and no cm-new once started", vm.VMID, tags)
						}
						id := s.RootModule().Resources["compute_instance.web"].Primary.ID
						if id != strconv.Itoa(vm.VMID) {
							return fmt.Errorf("instance id %s is not the VMID %d", id, vm.VMID)
						}
						return nil
					},
				),
			},
			{
				Config:            cfg,
				ResourceName:      "compute_instance.web",
				ImportState:       true,
				ImportStateIdFunc: acctest.ImportID("compute_instance.web"),
				ImportStateVerify: true,
				// User data and timeouts are never read back; a clone does
				// not say which template it came from.
				ImportStateVerifyIgnore: []string{"image", "user_data", "user_data_sha256", "timeouts"},
			},
			{
				Config:           cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}
