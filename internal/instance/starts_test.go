package instance_test

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

// TestInstanceCreateFollowsItsStart: the API may show a new server off
// between create_server and the start_server its create queued. The create
// waits for that start and sends no power-on of its own.
func TestInstanceCreateFollowsItsStart(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	e.SetOffBeforeStart(true)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             e.CheckDestroy,
		Steps: []resource.TestStep{{
			Config: instance(e, "web-1"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("state"), knownvalue.StringExact("running")),
			},
			Check: func(*terraform.State) error {
				for route, n := range e.Stats() {
					if route == "POST /servers/{id}/actions/poweron" && n > 0 {
						return fmt.Errorf("the create sent %d power-on(s) to a server its create was starting: %v", n, e.Stats())
					}
				}
				return nil
			},
		}},
	})
}
