package account_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestAccountUnknownSettingKeepsDefaults: a setting left out of the
// configuration takes its default even while another setting is unknown at
// plan time (here the endpoint, known only at apply); the plan must not keep
// the prior explicit value and then apply the default.
func TestAccountUnknownSettingKeepsDefaults(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	withLoc := fmt.Sprintf(`
resource "compute_provider_account" "test" {
  name = "test"
  hetzner_cloud = {
    token    = "env://%s"
    endpoint = %q
    location = "nbg1"
  }
}
`, acctest.HetznerCloudTokenEnv, e.Endpoint)
	unknownEndpoint := fmt.Sprintf(`
resource "compute_provider_account" "test" {
  name = "test"
  hetzner_cloud = {
    token    = "env://%s"
    endpoint = "%s${substr(timestamp(), 0, 0)}"
  }
}
`, acctest.HetznerCloudTokenEnv, e.Endpoint)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: withLoc},
			{
				Config: unknownEndpoint,
				// timestamp() is unknown in every plan.
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("hetzner_cloud").AtMapKey("location"), knownvalue.StringExact("fsn1")),
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("id")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("hetzner_cloud").AtMapKey("location"), knownvalue.StringExact("fsn1")),
				},
			},
		},
	})
}
