package offers_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestOffersRideOutBackendFailures: a catalog the API answers 503, 503 and
// then 500 is read on the fourth attempt.
func TestOffersRideOutBackendFailures(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			PreConfig: func() {
				e.FailNext("GET", "/server_types", 2, 503, "unavailable")
				e.FailNext("GET", "/server_types", 1, 500, "server_error")
			},
			Config: query(e, `min_vcpu = 2`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(ds, tfjsonpath.New("offers").AtSliceIndex(0).AtMapKey("id"), knownvalue.NotNull()),
			},
			Check: func(*terraform.State) error {
				if err := e.FaultsUsedUp(nil); err != nil {
					return err
				}
				if n := e.Stats()["GET /server_types"]; n < 4 {
					return fmt.Errorf("%d catalog reads, want the three failures and a success", n)
				}
				return nil
			},
		}},
	})
}

// TestOffersTimeoutMustBePositive: a read timeout of no time is refused at
// plan time on its attribute.
func TestOffersTimeoutMustBePositive(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	for _, v := range []string{"0s", "-5m"} {
		resource.UnitTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.Factories(),
			Steps: []resource.TestStep{{
				Config:      query(e, "timeouts {\n    read = \""+v+"\"\n  }"),
				PlanOnly:    true,
				ExpectError: acctest.Match(`timeouts\.read = "` + v + `" is not a positive duration.*or remove read to use the default \(5m\)`),
			}},
		})
	}
	if n := e.Stats()["GET /server_types"]; n != 0 {
		t.Errorf("%d catalog reads for a refused configuration", n)
	}
}
