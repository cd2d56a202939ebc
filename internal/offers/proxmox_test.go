package offers_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	pveemu "github.com/seedcompute/terraform-provider-compute/internal/emulator/proxmox"
)

// pveOffer is what compute_offers shows of one flavor on a node.
func pveOffer(id, node string, vcpu int64, memoryGiB float64, available bool) knownvalue.Check {
	return knownvalue.ObjectPartial(map[string]knownvalue.Check{
		"id":         knownvalue.StringExact(id),
		"kind":       knownvalue.StringExact("vps"),
		"location":   knownvalue.StringExact(node),
		"vcpu":       knownvalue.Int64Exact(vcpu),
		"memory_gib": knownvalue.Float64Exact(memoryGiB),
		"available":  knownvalue.Bool(available),
	})
}

// TestOffersProxmox reads a Proxmox account's catalog: one offer per
// flavor, on the node the account pins (pve2, whose 12 GiB leave 10 free
// once the host takes its 2) or the one a query names. The large flavor
// (8 cores, 16 GiB) is not available on pve2, which lacks the memory, and
// is on pve1 until a VM started behind the provider's back takes pve1's
// memory too; a node the cluster has not yields [].
func TestOffersProxmox(t *testing.T) {
	t.Parallel()
	p := acctest.NewProxmox(t, func(o *pveemu.Options) {
		o.Nodes = []pveemu.NodeSeed{
			{Name: "pve1", Cores: 16, MemoryMiB: 64 << 10, Online: true},
			{Name: "pve2", Cores: 8, MemoryMiB: 12 << 10, Online: true},
		}
	})
	config := p.Account(`node = "pve2"`) + `
data "compute_offers" "pinned" {
  accounts = [compute_provider_account.pve.id]
}

data "compute_offers" "pve1" {
  accounts = [compute_provider_account.pve.id]
  location = "pve1"
}

data "compute_offers" "pve1_large" {
  accounts       = [compute_provider_account.pve.id]
  location       = "pve1"
  min_memory_gib = 8
}

data "compute_offers" "elsewhere" {
  accounts = [compute_provider_account.pve.id]
  location = "pve9"
}
`
	offers := func(ds string, want ...knownvalue.Check) statecheck.StateCheck {
		return statecheck.ExpectKnownValue("data.compute_offers."+ds, tfjsonpath.New("offers"), knownvalue.ListExact(want))
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					// No prices: sorted by id.
					offers("pinned", pveOffer("large", "pve2", 8, 16, false), pveOffer("small", "pve2", 2, 2, true)),
					offers("pve1", pveOffer("large", "pve1", 8, 16, true), pveOffer("small", "pve1", 2, 2, true)),
					offers("pve1_large", pveOffer("large", "pve1", 8, 16, true)),
					offers("elsewhere"),
					statecheck.ExpectKnownValue("data.compute_offers.pve1", tfjsonpath.New("offers").AtSliceIndex(0), knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"price_per_hour": knownvalue.Float64Exact(0),
						"currency":       knownvalue.StringExact(""),
						"disk_gib":       knownvalue.Int64Exact(80),
					})),
				},
			},
			{
				// 50 of pve1's 62 free GiB go to a running VM: 12 are left.
				PreConfig: func() {
					if _, err := p.PVE.AddVM(pveemu.VMSeed{Name: "db", Node: "pve1", Running: true, Cores: 8, MemoryMiB: 50 << 10}); err != nil {
						t.Fatal(err)
					}
				},
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					offers("pve1", pveOffer("large", "pve1", 8, 16, false), pveOffer("small", "pve1", 2, 2, true)),
					offers("pinned", pveOffer("large", "pve2", 8, 16, false), pveOffer("small", "pve2", 2, 2, true)),
				},
			},
		},
	})
}
