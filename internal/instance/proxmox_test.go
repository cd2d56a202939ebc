package instance_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
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

// proxmoxInstance is the target's account plus compute_instance.web of the
// target's flavor and template named name, with extra lines.
func proxmoxInstance(tg *acctest.Target, name string, extra ...string) string {
	location := ""
	if tg.Location != "" {
		location = fmt.Sprintf("location = %q", tg.Location)
	}
	return tg.Account() + acctest.InstanceBlock{Resource: "web", Account: "test", Name: name, Offer: tg.Offer, Image: tg.Image}.HCL(append([]string{location}, extra...)...)
}

// TestProxmoxInstanceLifecycle: one VM cloned from the template, running
// with the agent's address, its VMID in the tests' range and marked as
// ours; the next plan is empty, import verifies, power off and a rename are
// changes in place, and destroy removes the VM. It runs against any
// Proxmox VE target (acctest.NewTargetOn): what it asks of the VM, it asks
// the API; the tags and the address range only the in-process emulator
// shows.
func TestProxmoxInstanceLifecycle(t *testing.T) {
	t.Parallel()
	tg := acctest.NewTargetOn(t, acctest.ProxmoxVE)
	web1, web2 := tg.Name("web-1"), tg.Name("web-2")
	vmid := regexp.MustCompile(`^\d+$`)
	machine := func(name string, check func(adapter.Machine) bool) resource.TestCheckFunc {
		return func(s *terraform.State) error {
			m, err := tg.Machine(name)
			if err != nil {
				return err
			}
			if id := s.RootModule().Resources[addr].Primary.ID; id != m.ID || !check(m) {
				return fmt.Errorf("VM %s (instance id %s): %+v", name, id, m)
			}
			return nil
		}
	}
	emulated := func(s *terraform.State) error {
		p := tg.Proxmox()
		if p == nil {
			return nil // only the emulator shows tags and hands out documentation addresses
		}
		vm, ok := p.Named(web1)
		if !ok {
			return fmt.Errorf("no VM named %s", web1)
		}
		if tags := vm.Config["tags"]; !strings.Contains(tags, "compute") || strings.Contains(tags, "cm-new") {
			return fmt.Errorf("VM %d has tags %q, want compute and no cm-new once started", vm.VMID, tags)
		}
		if vm.VMID < acctest.ProxmoxTestVMIDMin || vm.VMID > acctest.ProxmoxTestVMIDMax {
			return fmt.Errorf("VM %d is outside the tests' VMID range", vm.VMID)
		}
		return resource.TestMatchResourceAttr(addr, "ipv4_address", acctest.Match(`^192\.0\.2\.`))(s)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             tg.CheckDestroy,
		Steps: []resource.TestStep{
			{
				Config: proxmoxInstance(tg, web1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("managed"), knownvalue.Bool(true)),
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("id")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringRegexp(vmid)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("state"), knownvalue.StringExact("running")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("offer_id"), knownvalue.StringExact(acctest.ProxmoxTestFlavor)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("managed"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("ipv4_address"), knownvalue.NotNull()),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					tg.CheckMachines(1),
					machine(web1, func(m adapter.Machine) bool {
						n, _ := strconv.Atoi(m.ID)
						return m.Managed && m.Key != "" && n >= acctest.ProxmoxTestVMIDMin && n <= acctest.ProxmoxTestVMIDMax
					}),
					emulated,
				),
			},
			{
				Config:           proxmoxInstance(tg, web1),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				ResourceName:      addr,
				ImportState:       true,
				ImportStateIdFunc: acctest.ImportID(addr),
				ImportStateVerify: true,
				// User data and timeouts are never read back; a clone does
				// not say which template it came from.
				ImportStateVerifyIgnore: []string{"image", "user_data", "user_data_sha256", "timeouts"},
			},
			{
				Config: proxmoxInstance(tg, web1, `power = "off"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("power"), knownvalue.StringExact("off")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("state"), knownvalue.StringExact("stopped")),
				},
				Check: machine(web1, func(m adapter.Machine) bool { return m.State == adapter.StateStopped }),
			},
			{
				Config: proxmoxInstance(tg, web2, `power = "on"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact(web2)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("state"), knownvalue.StringExact("running")),
				},
				Check: resource.ComposeAggregateTestCheckFunc(
					tg.CheckMachines(1),
					machine(web2, func(m adapter.Machine) bool { return m.Managed && m.State == adapter.StateRunning }),
				),
			},
		},
	})
}
