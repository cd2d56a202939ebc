package offers_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

const ds = "data.compute_offers.q"

func query(e *acctest.Emulator, filters string) string {
	return e.Account() + fmt.Sprintf(`
data "compute_offers" "q" {
  accounts = [compute_provider_account.test.id]
  %s
}
`, filters)
}

func ids(want ...string) knownvalue.Check {
	checks := make([]knownvalue.Check, len(want))
	for i, id := range want {
		checks[i] = knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact(id)})
	}
	return knownvalue.ListExact(checks)
}

func TestOffersFilters(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	step := func(filters string, want knownvalue.Check) resource.TestStep {
		return resource.TestStep{
			Config:            query(e, filters),
			ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(ds, tfjsonpath.New("offers"), want)},
		}
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			// Sorted by price: the cheapest four-core offers first.
			step(`min_vcpu = 4`, ids("cax21", "cx32", "cpx31", "cx42", "cx52")),
			step(`min_vcpu = 4
  max_price_per_hour = 0.02`, ids("cax21", "cx32")),
			step(`min_memory_gib = 32`, ids("cx52")),
			// ash sells neither the EU-only nor the ARM types.
			step(`location = "ash"
  min_vcpu = 3`, ids("cpx21", "cpx31")),
			step(`min_vcpu = 1000`, knownvalue.ListSizeExact(0)),
			step(`kind = "metal"`, knownvalue.ListSizeExact(0)),
			step(`min_gpus = 1`, knownvalue.ListSizeExact(0)),
			// Hetzner Cloud sells no GPUs: any model is [], not an error.
			step(`gpu_model = "A100"`, knownvalue.ListExact([]knownvalue.Check{})),
			{
				Config: query(e, `min_memory_gib = 32`),
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(ds, tfjsonpath.New("offers").AtSliceIndex(0), knownvalue.ObjectExact(map[string]knownvalue.Check{
					"id":             knownvalue.StringExact("cx52"),
					"account":        knownvalue.StringRegexp(regexp.MustCompile(`^\{.*"kind":"hcloud",`)),
					"kind":           knownvalue.StringExact("vps"),
					"location":       knownvalue.StringExact("fsn1"),
					"description":    knownvalue.StringRegexp(regexp.MustCompile(`CX52`)),
					"vcpu":           knownvalue.Int64Exact(16),
					"memory_gib":     knownvalue.Float64Exact(32),
					"disk_gib":       knownvalue.Int64Exact(320),
					"gpus":           knownvalue.Int64Exact(0),
					"gpu_model":      knownvalue.StringExact(""),
					"price_per_hour": knownvalue.NotNull(),
					// Billed by the hour: no monthly price, no setup fee.
					"price_per_month": knownvalue.Null(),
					"setup_fee":       knownvalue.Null(),
					"currency":        knownvalue.StringExact("EUR"),
					"available":       knownvalue.Bool(true),
				}))},
			},
		},
	})
}

// TestOffersAcrossAccounts merges two accounts' catalogs: equal prices are
// ordered by id, then by account.
func TestOffersAcrossAccounts(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	cfg := fmt.Sprintf(`
resource "compute_provider_account" "a" {
  name          = "a"
  hetzner_cloud = { token = "env://%[1]s", endpoint = %[2]q, location = "fsn1" }
}
resource "compute_provider_account" "b" {
  name          = "b"
  hetzner_cloud = { token = "env://%[1]s", endpoint = %[2]q, location = "nbg1" }
}
data "compute_offers" "q" {
  accounts = [compute_provider_account.b.id, compute_provider_account.a.id]
  min_vcpu = 16
}
`, acctest.HetznerCloudTokenEnv, e.Endpoint)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config: cfg,
			ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(ds, tfjsonpath.New("offers"), knownvalue.ListExact([]knownvalue.Check{
				knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact("cx52"), "location": knownvalue.StringExact("fsn1")}),
				knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact("cx52"), "location": knownvalue.StringExact("nbg1")}),
			}))},
		}},
	})
}

func TestOffersUnknownLocation(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config:      query(e, `location = "xyz1"`),
			ExpectError: acctest.Match(`Listing the offers of account "test" \(hetzner_cloud at \S+\) with filters location=xyz1 failed.*Location "xyz1" does not exist; available: .*fsn1`),
		}},
	})
}
