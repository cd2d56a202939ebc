package offers_test

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestOffersAnyTarget lists the catalog of whichever target the environment
// chose (acctest.NewTarget), so it asks only what holds of every catalog:
// the offer lifecycle tests create is there, every offer belongs to the
// account, the list is sorted by price (unpriced offers last), and an
// impossible query is [].
func TestOffersAnyTarget(t *testing.T) {
	t.Parallel()
	tg := acctest.NewTarget(t)
	q := func(filters string) string {
		return tg.Account() + fmt.Sprintf(`
data "compute_offers" "q" {
  accounts = [compute_provider_account.test.id]
  %s
}
`, filters)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{
				Config: q(`min_vcpu = 1`),
				Check:  sortedOffersOf(tg),
			},
			{
				Config:            q(`min_vcpu = 100000`),
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(ds, tfjsonpath.New("offers"), knownvalue.ListSizeExact(0))},
			},
		},
	})
}

// sortedOffersOf checks the listing of the target's account.
func sortedOffersOf(tg *acctest.Target) func(*terraform.State) error {
	return func(s *terraform.State) error {
		r, ok := s.RootModule().Resources[ds]
		if !ok {
			return fmt.Errorf("%s is not in state", ds)
		}
		a := r.Primary.Attributes
		n, _ := strconv.Atoi(a["offers.#"])
		if n == 0 {
			return fmt.Errorf("no offers at all on %s", tg.Kind)
		}
		found, last := false, 0.0
		for i := range n {
			at := func(k string) string { return a[fmt.Sprintf("offers.%d.%s", i, k)] }
			// Unpriced offers (0) come after every priced one.
			price, err := strconv.ParseFloat(at("price_per_hour"), 64)
			if err != nil || (price < last && price != 0) || (last == 0 && i > 0 && price != 0) {
				return fmt.Errorf("offer %d (%s) priced %q after %g: not sorted by price", i, at("id"), at("price_per_hour"), last)
			}
			last = price
			if at("account") != tg.AccountID() {
				return fmt.Errorf("offer %s belongs to %q, want %q", at("id"), at("account"), tg.AccountID())
			}
			found = found || at("id") == tg.Offer && at("location") == tg.Location
		}
		if !found {
			return fmt.Errorf("offer %s in %s, which lifecycle tests create, is not among the %d offers", tg.Offer, tg.Location, n)
		}
		return nil
	}
}
