package instance_test

import (
	"fmt"
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

// proxmoxFlavorsWider is ProxmoxFlavors with the large flavor grown: an
// edit that keeps the machine's flavor (small) as it was.
const proxmoxFlavorsWider = `jsonencode({
      small = { cores = 2, memory_mib = 2048, disk_gib = 20 }
      large = { cores = 16, memory_mib = 32768, disk_gib = 160 }
    })`

// pveOn is the Proxmox account "pve" with the given endpoint, flavors and
// extra lines, and compute_instance "web" of flavor small on it.
func pveOn(p *acctest.Proxmox, endpoint, flavors string, extra ...string) string {
	return p.Provider() + fmt.Sprintf(`
resource "compute_provider_account" "pve" {
  name = "pve"
  proxmox = {
    endpoint        = %q
    api_token       = "provider://pve_token"
    tls_fingerprint = %q
    flavors         = %s
    %s
  }
}
`, endpoint, p.Fingerprint, flavors, strings.Join(extra, "\n    ")) + p.Instance("web")
}

// TestProxmoxAccountChangesRepointInPlace: the endpoint with a trailing
// slash, or through localhost, another agent_timeout, a flavors edit that
// keeps the VM's flavor: each re-points the VM in place (or changes
// nothing), it keeps its VMID and node, nothing is written to the cluster,
// and the next plan is empty.
func TestProxmoxAccountChangesRepointInPlace(t *testing.T) {
	t.Parallel()
	p := acctest.NewProxmox(t)
	localhost := strings.Replace(p.Endpoint, "127.0.0.1", "localhost", 1)
	var vmid int
	var node string
	var before map[string]int
	snapshot := func() { before = acctest.Writes(p.PVE.Stats()) }
	unchangedVM := func(*terraform.State) error {
		vms := p.Machines()
		if len(vms) != 1 || vms[0].VMID != vmid || vms[0].Node != node {
			return fmt.Errorf("want VM %d on %s alone, cluster holds %+v", vmid, node, vms)
		}
		return acctest.NoWritesSince(before, p.PVE.Stats())
	}
	step := func(config string, action plancheck.ResourceActionType) resource.TestStep {
		return resource.TestStep{
			PreConfig: snapshot, Config: config,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction("compute_instance.web", action),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("compute_instance.web", tfjsonpath.New("offer_id"), knownvalue.StringExact("small")),
			},
			Check: unchangedVM,
		}
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             p.CheckDestroy,
		Steps: []resource.TestStep{
			{
				Config: pveOn(p, p.Endpoint, acctest.ProxmoxFlavors),
				Check: func(*terraform.State) error {
					vm, ok := p.Named("web")
					if !ok {
						return fmt.Errorf("no VM web")
					}
					vmid, node = vm.VMID, vm.Node
					return nil
				},
			},
			step(pveOn(p, p.Endpoint+"/", acctest.ProxmoxFlavors), plancheck.ResourceActionNoop),
			step(pveOn(p, localhost, acctest.ProxmoxFlavors), plancheck.ResourceActionUpdate),
			step(pveOn(p, localhost, acctest.ProxmoxFlavors, `agent_timeout = "5s"`), plancheck.ResourceActionUpdate),
			step(pveOn(p, p.Endpoint, proxmoxFlavorsWider, `agent_timeout = "5s"`), plancheck.ResourceActionUpdate),
		},
	})
}

// TestProxmoxAccountOnAnotherClusterFails: an account on another cluster
// does not reach the VM (the other cluster has no VM of that VMID): the
// plan fails on account with the way out, and nothing is written on either.
func TestProxmoxAccountOnAnotherClusterFails(t *testing.T) {
	t.Parallel()
	p := acctest.NewProxmox(t)
	other := acctest.NewProxmox(t)
	var before, otherBefore map[string]int
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             p.CheckDestroy,
		Steps: []resource.TestStep{
			{Config: pveOn(p, p.Endpoint, acctest.ProxmoxFlavors)},
			{
				PreConfig: func() { before, otherBefore = acctest.Writes(p.PVE.Stats()), acctest.Writes(other.PVE.Stats()) },
				// The other cluster, its own certificate pinned.
				Config:      pveOn(other, other.Endpoint, acctest.ProxmoxFlavors),
				PlanOnly:    true,
				ExpectError: acctest.Match(`(?s)Unable to reach machine through new account.*machine \d+ \("web"\) is not reached through the new account.*taint ADDRESS`),
			},
			{
				PreConfig: func() {
					if err := acctest.NoWritesSince(before, p.PVE.Stats()); err != nil {
						t.Fatal(err)
					}
					if err := acctest.NoWritesSince(otherBefore, other.PVE.Stats()); err != nil {
						t.Fatalf("on the other cluster: %v", err)
					}
				},
				Config:           pveOn(p, p.Endpoint, acctest.ProxmoxFlavors),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

// TestProxmoxImportWithAnotherSpelling imports a VM by an id whose account
// part spells the endpoint with a trailing slash: the plan does not change
// the instance's account (the import took it as the account spells it),
// the apply writes the mark, and the next plan is empty.
func TestProxmoxImportWithAnotherSpelling(t *testing.T) {
	t.Parallel()
	p := acctest.NewProxmox(t)
	vmid := seedLegacy(t, p, "web")
	c := acctest.NewCLI(t, p.Account())
	c.MustRun("apply", "-auto-approve")
	loc, err := adapter.ParseLocator(accountID(t, c))
	if err != nil {
		t.Fatal(err)
	}
	loc.Settings["endpoint"] += "/"
	c.Config(pveOn(p, p.Endpoint, acctest.ProxmoxFlavors) + fmt.Sprintf("\nimport {\n  to = compute_instance.web\n  id = %q\n}\n", adapter.InstanceID(loc, fmt.Sprint(vmid))))
	if out := c.MustRun("plan"); !strings.Contains(out, "1 to import") || strings.Contains(out, "~ account") {
		t.Fatalf("want the VM imported without a change of its account:\n%s", out)
	}
	c.MustRun("apply", "-auto-approve")
	markedLegacy(t, p, vmid)
	emptyPlan(t, c)
}
