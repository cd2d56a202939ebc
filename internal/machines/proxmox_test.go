package machines_test

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	pveemu "github.com/seedcompute/terraform-provider-compute/internal/emulator/proxmox"
)

// pveInventory is a Proxmox account with one instance of its own (app-1),
// compute_machines of the whole cluster read after that instance exists,
// and compute_machines of the web- VMs.
func pveInventory(p *acctest.Proxmox) string {
	return p.Account() + p.Instance("app-1") + `
data "compute_machines" "all" {
  accounts   = [compute_provider_account.pve.id]
  depends_on = [compute_instance.app-1]
}

data "compute_machines" "fleet" {
  accounts    = [compute_provider_account.pve.id]
  name_prefix = "web-"
}
`
}

// pveFleet adopts the web- VMs as the compute_machines example shows. A
// clone does not say which template it came from, so image falls back to
// the one the VMs were cloned from.
func pveFleet(p *acctest.Proxmox) string {
	return pveInventory(p) + `
import {
  for_each = { for m in data.compute_machines.fleet.machines : m.name => m if !m.managed }
  to       = compute_instance.fleet[each.key]
  id       = each.value.id
}

resource "compute_instance" "fleet" {
  for_each = { for m in data.compute_machines.fleet.machines : m.name => m }
  account  = compute_provider_account.pve.id
  name     = each.value.name
  offer_id = each.value.offer_id
  image    = coalesce(each.value.image, "` + acctest.ProxmoxTemplate + `")
  location = each.value.location
  labels   = each.value.labels
  power    = each.value.state == "stopped" ? "off" : "on"
}
`
}

// TestMachinesProxmox: compute_machines on a Proxmox cluster lists the VMs
// the provider manages (tagged compute) and those it does not, never a
// template, with the flavor matching each VM's cores and memory as its
// offer; its ids adopt the unmanaged web- VMs through import blocks, the
// apply tags them without creating, starting or stopping any, the next plan
// is empty, and destroying the fleet leaves the VM it never imported.
func TestMachinesProxmox(t *testing.T) {
	t.Parallel()
	p := acctest.NewProxmox(t)
	seed := func(s pveemu.VMSeed) int {
		id, err := p.PVE.AddVM(s)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	web1 := seed(pveemu.VMSeed{Name: "web-1", Node: "pve1", Running: true, Cores: 2, MemoryMiB: 2048})
	web2 := seed(pveemu.VMSeed{Name: "web-2", Node: "pve2", Cores: 2, MemoryMiB: 2048})
	db := seed(pveemu.VMSeed{Name: "db-1", Node: "pve1", Running: true, Cores: 8, MemoryMiB: 16384})
	// A template named like the fleet: never a machine.
	seed(pveemu.VMSeed{Name: "web-template", Node: "pve2", Template: true})
	fleet := map[string]int{"web-1": web1, "web-2": web2}

	machine := func(name string, id int, managed bool, extra map[string]knownvalue.Check) knownvalue.Check {
		want := map[string]knownvalue.Check{"name": knownvalue.StringExact(name), "managed": knownvalue.Bool(managed)}
		if id != 0 {
			want["id"] = knownvalue.StringRegexp(acctest.Match(`^\{.*"kind":"proxmox",.*\}/` + strconv.Itoa(id) + `$`))
		}
		for k, v := range extra {
			want[k] = v
		}
		return knownvalue.ObjectPartial(want)
	}
	list := func(ds string, want ...knownvalue.Check) statecheck.StateCheck {
		return statecheck.ExpectKnownValue("data.compute_machines."+ds, tfjsonpath.New("machines"), knownvalue.ListExact(want))
	}
	at := func(n string) string { return fmt.Sprintf("compute_instance.fleet[%q]", n) }
	var imports, destroys []plancheck.PlanCheck
	for n := range fleet {
		imports = append(imports, plancheck.ExpectResourceAction(at(n), plancheck.ResourceActionUpdate))
		destroys = append(destroys, plancheck.ExpectResourceAction(at(n), plancheck.ResourceActionDestroy))
	}
	vmsUntouched := emulatorCheck(func() error {
		if n := p.Requests("POST /nodes/{node}/qemu/{vmid}/clone"); n != 1 {
			return fmt.Errorf("%d clones, want app-1's alone", n)
		}
		for name, id := range map[string]int{"web-1": web1, "web-2": web2, "db-1": db} {
			vm, _ := p.PVE.VM(id)
			if want := map[bool]string{true: "running", false: "stopped"}[id != web2]; vm.Status != want {
				return fmt.Errorf("%s is %s, want %s as it was seeded", name, vm.Status, want)
			}
		}
		return nil
	})
	tagged := func(name string, id int, want bool) error {
		vm, ok := p.PVE.VM(id)
		if !ok {
			return fmt.Errorf("%s (VM %d) is gone", name, id)
		}
		if got := acctest.Match(`(^|;)compute(;|$)`).MatchString(vm.Config["tags"]); got != want {
			return fmt.Errorf("%s has tags %q, want the compute tag %v", name, vm.Config["tags"], want)
		}
		return nil
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{
				Config: pveInventory(p),
				ConfigStateChecks: []statecheck.StateCheck{
					list("all",
						machine("app-1", 0, true, map[string]knownvalue.Check{"state": knownvalue.StringExact("running"), "offer_id": knownvalue.StringExact("small")}),
						machine("db-1", db, false, map[string]knownvalue.Check{"offer_id": knownvalue.StringExact("large"), "location": knownvalue.StringExact("pve1")}),
						machine("web-1", web1, false, map[string]knownvalue.Check{"state": knownvalue.StringExact("running"), "offer_id": knownvalue.StringExact("small")}),
						machine("web-2", web2, false, map[string]knownvalue.Check{"state": knownvalue.StringExact("stopped"), "location": knownvalue.StringExact("pve2")}),
					),
					list("fleet", machine("web-1", web1, false, nil), machine("web-2", web2, false, nil)),
				},
			},
			{
				Config:           pveFleet(p),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: imports},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(at("web-2"), tfjsonpath.New("managed"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(at("web-2"), tfjsonpath.New("state"), knownvalue.StringExact("stopped")),
					vmsUntouched,
					emulatorCheck(func() error {
						for n, id := range fleet {
							if err := tagged(n, id, true); err != nil {
								return err
							}
						}
						return tagged("db-1", db, false)
					}),
				},
			},
			{
				Config:           pveFleet(p),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{
					list("fleet", machine("web-1", web1, true, nil), machine("web-2", web2, true, nil)),
					vmsUntouched,
				},
			},
			{
				// The state shim that the test's own destroy reads refuses
				// for_each instances, so the fleet goes here.
				Config:           pveInventory(p),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: destroys},
				ConfigStateChecks: []statecheck.StateCheck{emulatorCheck(func() error {
					for n, id := range fleet {
						if _, ok := p.PVE.VM(id); ok {
							return fmt.Errorf("%s (VM %d) is still there after the fleet was destroyed", n, id)
						}
					}
					return tagged("db-1", db, false)
				})},
			},
		},
	})
}
