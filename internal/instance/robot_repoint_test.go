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
)

// robotInstanceAs is robotInstance with the account written as
// acctest.Metal.AccountAs writes it.
func robotInstanceAs(m *acctest.Metal, password, endpoint, sshPort string, account ...string) string {
	return strings.Replace(robotInstance(m, "web-1"), m.Account(), m.AccountAs(password, endpoint, sshPort, account...), 1)
}

// TestRobotInstanceAccountChangesRepointInPlace: compute_instance on a
// Robot account whose password reference is rotated, whose ssh_port and
// cancel_on_destroy and default location change, and whose endpoint gains
// a trailing slash is re-pointed in place (or not changed at all), keeping
// its location: the server keeps its claim
// name, is not reset, renamed, released or cancelled (no write reaches the
// webservice), and the next plan is empty.
func TestRobotInstanceAccountChangesRepointInPlace(t *testing.T) {
	t.Parallel()
	m := acctest.NewMetal(t)
	n, _ := m.AddServer(t, "AX42")
	rotated := m.CopySecret(t, "password", "password-rotated")
	var name string
	var before map[string]int
	step := func(config string, action plancheck.ResourceActionType) resource.TestStep {
		return resource.TestStep{
			PreConfig: func() {
				// As the step finds it: the holder's first refresh
				// confirmed its claim, which is the one write before.
				before = acctest.Writes(m.Robot.Stats())
				if s, ok := m.Server(n); ok {
					name = s.Name
				}
			},
			Config: config,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction(addr, action),
			}},
			Check: func(*terraform.State) error {
				srv, ok := m.Server(n)
				if !ok || srv.Name != name {
					return fmt.Errorf("server %d is named %q, want %q as before", n, srv.Name, name)
				}
				if c, err := m.Cancelled(n); err != nil || c {
					return fmt.Errorf("server %d: cancelled %v (%v)", n, c, err)
				}
				return acctest.NoWritesSince(before, m.Robot.Stats())
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("location"), knownvalue.StringExact("fsn1")),
			},
		}
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             m.CheckReleased(n, ""),
		Steps: []resource.TestStep{
			{
				Config: robotInstanceAs(m, "", "", ""),
				Check: func(*terraform.State) error {
					s, _ := m.Server(n)
					name = s.Name
					return claimedFor(m, n, "web-1")(nil)
				},
			},
			step(robotInstanceAs(m, rotated, "", ""), plancheck.ResourceActionUpdate),
			step(robotInstanceAs(m, rotated, "", "2222"), plancheck.ResourceActionUpdate),
			step(robotInstanceAs(m, rotated, m.Endpoint+"/", "2222"), plancheck.ResourceActionNoop),
			step(robotInstanceAs(m, rotated, m.Endpoint+"/", "2222", `cancel_on_destroy = true`), plancheck.ResourceActionUpdate),
			// Another default location moves nothing: the server stays where
			// it is, and so does its location in state.
			step(robotInstanceAs(m, "", "", "", `location = "hel1"`), plancheck.ResourceActionUpdate),
			step(robotInstanceAs(m, "", "", ""), plancheck.ResourceActionUpdate),
		},
	})
}
