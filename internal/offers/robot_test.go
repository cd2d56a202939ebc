package offers_test

import (
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// robotOffer is one offer the Robot emulator's catalog must yield: gross
// prices (VAT included), the setup fee 0 when there is none.
type robotOffer struct {
	id             string
	monthly, setup float64
}

// TestOffersRobot reads a Robot account's catalog through compute_offers:
// standard products and server market offers of the location, cheapest
// first, each with its monthly price, setup fee and that price spread over
// 730 hours; a GPU filter and a location Robot has not are [].
func TestOffersRobot(t *testing.T) {
	t.Parallel()
	m := acctest.NewMetal(t)
	config := m.Account() + `
data "compute_offers" "fsn1" {
  accounts = [compute_provider_account.robot.id]
}

data "compute_offers" "hel1" {
  accounts = [compute_provider_account.robot.id]
  location = "hel1"
}

data "compute_offers" "gpu" {
  accounts  = [compute_provider_account.robot.id]
  gpu_model = "A100"
}

data "compute_offers" "elsewhere" {
  accounts = [compute_provider_account.robot.id]
  location = "ash"
}
`
	// The emulator's net prices times 1.19 (German VAT).
	fsn1 := []robotOffer{
		{"market-2345001", 46.41, 0}, // 39.00 net, an auction server in FSN1-DC16
		{"EX44", 52.36, 46.41},
		{"AX42", 55.2279, 0},
		{"AX52", 76.16, 0},
		{"SX65", 117.81, 94.01},
	}
	hel1 := []robotOffer{
		{"market-2345002", 48.79, 0},
		{"EX44", 50.575, 46.41},
		{"AX42", 55.2279, 0},
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.compute_offers.gpu", tfjsonpath.New("offers"), knownvalue.ListExact([]knownvalue.Check{})),
				statecheck.ExpectKnownValue("data.compute_offers.elsewhere", tfjsonpath.New("offers"), knownvalue.ListExact([]knownvalue.Check{})),
				statecheck.ExpectKnownValue("data.compute_offers.fsn1", tfjsonpath.New("offers").AtSliceIndex(0), knownvalue.ObjectPartial(map[string]knownvalue.Check{
					"kind":       knownvalue.StringExact("metal"),
					"location":   knownvalue.StringExact("fsn1"),
					"currency":   knownvalue.StringExact("EUR"),
					"available":  knownvalue.Bool(true),
					"memory_gib": knownvalue.Float64Exact(64),
					// Without a setup fee the fee is null, not 0.
					"setup_fee": knownvalue.Null(),
				})),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				robotOffers("data.compute_offers.fsn1", "fsn1", fsn1),
				robotOffers("data.compute_offers.hel1", "hel1", hel1),
			),
		}},
	})
}

// robotOffers checks that data source ds lists exactly want, in this order,
// in location loc, with price_per_hour = price_per_month / 730.
func robotOffers(ds, loc string, want []robotOffer) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		r, ok := s.RootModule().Resources[ds]
		if !ok {
			return fmt.Errorf("%s is not in the state", ds)
		}
		a := r.Primary.Attributes
		if got := a["offers.#"]; got != strconv.Itoa(len(want)) {
			return fmt.Errorf("%s lists %s offers, want %d (%v)", ds, got, len(want), want)
		}
		num := func(key string) float64 {
			f, _ := strconv.ParseFloat(a[key], 64)
			return f
		}
		for i, w := range want {
			at := fmt.Sprintf("offers.%d.", i)
			monthly, hourly, setup := num(at+"price_per_month"), num(at+"price_per_hour"), num(at+"setup_fee")
			switch {
			case a[at+"id"] != w.id:
				return fmt.Errorf("%s offers[%d] is %s, want %s (cheapest first)", ds, i, a[at+"id"], w.id)
			case a[at+"location"] != loc:
				return fmt.Errorf("%s offers[%d] (%s) is in %s, want %s", ds, i, w.id, a[at+"location"], loc)
			case math.Abs(monthly-w.monthly) > 1e-9:
				return fmt.Errorf("%s %s costs %v a month, want %v", ds, w.id, monthly, w.monthly)
			case math.Abs(hourly-w.monthly/730) > 1e-12:
				return fmt.Errorf("%s %s costs %v an hour, want its monthly %v / 730 = %v", ds, w.id, hourly, w.monthly, w.monthly/730)
			case math.Abs(setup-w.setup) > 1e-9:
				return fmt.Errorf("%s %s has setup fee %q, want %v", ds, w.id, a[at+"setup_fee"], w.setup)
			}
		}
		return nil
	}
}
