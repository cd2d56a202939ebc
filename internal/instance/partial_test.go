package instance_test

import (
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
)

// TestCreateFailedAfterMachineIsTainted: a create that fails after the
// machine exists (the clone and its configuration went through, the start
// was refused) leaves the machine in state, tainted, with an error naming
// it; the next apply replaces it, and no machine is left outside the state.
// The Proxmox emulator serves because its adapter makes the machine in
// several requests and says which machine a late failure leaves.
func TestCreateFailedAfterMachineIsTainted(t *testing.T) {
	t.Parallel()
	// Refused, so not retried: the create ends with the machine made and
	// not started.
	testTainted(t, faults.Rule{Method: "POST", Path: "/nodes/{node}/qemu/{vmid}/status/*", Count: 1,
		Status: http.StatusForbidden, Message: "Permission check failed (/vms, VM.PowerMgmt)"})
}

// testTainted applies one instance while rule fails the machine's start,
// then applies again without the fault.
func testTainted(t *testing.T, rule faults.Rule, extra ...string) {
	p := acctest.NewProxmox(t)
	cfg := p.Account() + p.Instance("web", extra...)
	const inst = "compute_instance.web"
	var first int
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             p.CheckDestroy,
		Steps: []resource.TestStep{
			{
				PreConfig: func() {
					if err := p.PVE.Faults().AddRule(rule); err != nil {
						t.Fatal(err)
					}
				},
				Config:      cfg,
				ExpectError: regexp.MustCompile(`Machine \d+ \("web"\) was created[\s\S]*saved in state and tainted`),
			},
			{
				PreConfig: func() {
					p.PVE.Conformance().Clear()
					vm, ok := p.Named("web")
					if !ok || len(p.Machines()) != 1 {
						t.Fatalf("after the failed create the emulator holds %+v, want one VM web", p.Machines())
					}
					first = vm.VMID
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(inst, plancheck.ResourceActionDestroyBeforeCreate),
				}},
				Check: func(s *terraform.State) error {
					vms := p.Machines()
					if len(vms) != 1 {
						return fmt.Errorf("emulator holds %d VMs after the replacement, want 1: %+v", len(vms), vms)
					}
					if vms[0].Status != "running" {
						return fmt.Errorf("VM %d is %s, want running", vms[0].VMID, vms[0].Status)
					}
					id := s.RootModule().Resources[inst].Primary.ID
					if id != strconv.Itoa(vms[0].VMID) {
						return fmt.Errorf("instance id %s is not the VMID %d of the one VM (the failed create's was %d)", id, vms[0].VMID, first)
					}
					return nil
				},
			},
			{
				Config:           cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}
