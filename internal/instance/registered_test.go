package instance_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestRegisteredBackendLifecycle runs the lifecycle of TestInstanceLifecycle
// on every backend beyond the shipped ones (acctest.Registered), with no
// line of this package naming one: create, an empty plan, import, power
// off, rename and relabel with power on, destroy. make testacc-emulator
// runs it on the standalone emulator of each.
func TestRegisteredBackendLifecycle(t *testing.T) {
	if len(acctest.Registered) == 0 {
		t.Skip("no backend beyond the shipped ones is registered; the testbackends tag registers those kept in the tests")
	}
	for _, b := range acctest.Registered {
		t.Run(b.Kind, func(t *testing.T) {
			t.Parallel()
			tg := acctest.NewTargetOn(t, b)
			web1, web2 := tg.Name("web-1"), tg.Name("web-2")
			state := func(want string) statecheck.StateCheck {
				return statecheck.ExpectKnownValue(addr, tfjsonpath.New("state"), knownvalue.StringExact(want))
			}
			resource.UnitTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.Factories(),
				CheckDestroy:             tg.CheckDestroy,
				Steps: []resource.TestStep{
					{
						Config: targetInstance(tg, web1, nil),
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
						}},
						ConfigStateChecks: []statecheck.StateCheck{state("running")},
						Check:             tg.CheckMachines(1),
					},
					{
						Config:           targetInstance(tg, web1, nil),
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
					},
					{
						ResourceName: addr, ImportState: true, ImportStateIdFunc: acctest.ImportID(addr), ImportStateVerify: true,
						ImportStateVerifyIgnore: []string{"user_data", "user_data_sha256", "timeouts"},
					},
					{
						Config: targetInstance(tg, web1, nil, `power = "off"`),
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
						}},
						ConfigStateChecks: []statecheck.StateCheck{state("stopped")},
					},
					{
						Config: targetInstance(tg, web2, map[string]string{"team": "edge"}, `power = "on"`),
						ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
							plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
						}},
						ConfigStateChecks: []statecheck.StateCheck{state("running")},
						Check: func(*terraform.State) error {
							m, err := tg.Machine(web2)
							if err == nil && m.Labels["team"] != "edge" {
								err = fmt.Errorf("machine %s has labels %v, want team = edge", web2, m.Labels)
							}
							return err
						},
					},
				},
			})
		})
	}
}
