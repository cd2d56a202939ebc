package bootstrap_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	robotemu "github.com/seedcompute/terraform-provider-compute/internal/emulator/robot"
)

// These tests run compute_bootstrap_host with the real terraform against
// the Robot adapter, the Robot webservice emulator and the SSH farm behind
// it (acctest.Metal): nothing between the resource and the machines is a
// fake.

const robotImage = "Ubuntu-2404-noble-amd64-base"

// robotHost is compute_bootstrap_host.db on the Robot account with lines.
func robotHost(m *acctest.Metal, account []string, lines ...string) string {
	return m.Account(account...) + fmt.Sprintf(`
resource "compute_bootstrap_host" "db" {
  account  = compute_provider_account.robot.id
  hostname = "db-1"
  image    = %q
  %s
  %s
}
`, robotImage, m.FirstBoot(), strings.Join(lines, "\n  "))
}

// readyChecks are what a host that reached ready on server n holds.
func readyChecks(m *acctest.Metal, t *testing.T, n int) []statecheck.StateCheck {
	s, _ := m.Server(n)
	return []statecheck.StateCheck{
		statecheck.ExpectKnownValue(addr, tfjsonpath.New("phase"), knownvalue.StringExact("ready")),
		statecheck.ExpectKnownValue(addr, tfjsonpath.New("ready"), knownvalue.Bool(true)),
		statecheck.ExpectKnownValue(addr, tfjsonpath.New("failed_phase"), knownvalue.Null()),
		statecheck.ExpectKnownValue(addr, tfjsonpath.New("machine_id"), knownvalue.StringExact(fmt.Sprint(n))),
		statecheck.ExpectKnownValue(addr, tfjsonpath.New("ipv4"), knownvalue.StringExact(s.IP)),
		statecheck.ExpectKnownValue(addr, tfjsonpath.New("product_uuid"), knownvalue.StringExact(s.UUID)),
		statecheck.ExpectKnownValue(addr, tfjsonpath.New("rescue_host_key"),
			knownvalue.StringRegexp(regexp.MustCompile(`^ED25519 SHA256:[A-Za-z0-9+/]{43}$`))),
		knownHostsCheck{m: m, t: t, n: n},
	}
}

// knownHostsCheck: known_hosts is the server's address and the key its
// installed system answers SSH with now.
type knownHostsCheck struct {
	m *acctest.Metal
	t *testing.T
	n int
}

func (c knownHostsCheck) CheckState(ctx context.Context, req statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	s, _ := c.m.Server(c.n)
	want := s.IP + " " + c.m.InstalledHostKey(c.t, c.n)
	statecheck.ExpectKnownValue(addr, tfjsonpath.New("known_hosts"), knownvalue.StringExact(want)).CheckState(ctx, req, resp)
}

func installsOn(mach interface{ Installs() int }, want int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if got := mach.Installs(); got != want {
			return fmt.Errorf("the machine was installed %d times, want %d", got, want)
		}
		return nil
	}
}

// TestRobotBootstrapOrdered: no free server of the offer, the account
// allows orders and the price fits, so one is ordered; it is delivered
// after a few polls, bootstrapped, and cancelled on destroy since the
// account says cancel_on_destroy.
func TestRobotBootstrapOrdered(t *testing.T) {
	t.Parallel()
	m := acctest.NewMetal(t)
	m.Robot.SetOrderPace(robotemu.OrderPace{Polls: 3})
	account := []string{"allow_order = true", "cancel_on_destroy = true"}
	config := robotHost(m, account, `offer_id = "AX42"`, `max_monthly_price = 60`)
	var number int
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             func(s *terraform.State) error { return m.CheckCancelled(number)(s) },
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("machine_id")),
				}},
				Check: func(*terraform.State) error {
					servers := m.Robot.Servers()
					if len(servers) != 1 {
						return fmt.Errorf("the account holds %d servers after one order, want 1", len(servers))
					}
					number = servers[0].Number
					if n, err := m.Transactions(); err != nil || n != 1 {
						return fmt.Errorf("%d orders (%v), want 1", n, err)
					}
					return nil
				},
			},
			{
				Config:           config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("phase"), knownvalue.StringExact("ready")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("ready"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("known_hosts"), knownvalue.NotNull()),
				},
				Check: func(s *terraform.State) error {
					if got := s.RootModule().Resources[addr].Primary.Attributes["machine_id"]; got != fmt.Sprint(number) {
						return fmt.Errorf("machine_id %s, want the ordered server %d", got, number)
					}
					return installsOn(m.Machine(t, number), 1)(s)
				},
			},
		},
	})
}
