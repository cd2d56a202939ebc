package bootstrap_test

import (
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
	"golang.org/x/crypto/ssh"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	robotemu "github.com/seedcompute/terraform-provider-compute/internal/emulator/robot"
)

// failedStateChecks is a refresh-only step after an apply that failed in
// phase: the host is in state, failed there, for the reason.
func failedStateChecks(phase string, reason *regexp.Regexp) resource.TestCheckFunc {
	return resource.ComposeAggregateTestCheckFunc(
		resource.TestCheckResourceAttr(addr, "phase", "failed"),
		resource.TestCheckResourceAttr(addr, "failed_phase", phase),
		resource.TestMatchResourceAttr(addr, "reason", reason),
		resource.TestCheckResourceAttr(addr, "ready", "false"),
	)
}

// TestRobotWrongRescueHostKey: the webservice announces a rescue host key
// that is not the machine's. The apply stops in phase rescue before any
// credential is sent, with an error naming the host, the port and both
// fingerprints, and the machine saw no command. The key the machine
// offers is the one it made when rescue was armed (each activation has its
// own), so it is known only after the apply.
func TestRobotWrongRescueHostKey(t *testing.T) {
	t.Parallel()
	m := acctest.NewMetal(t)
	n, mach := m.AddServer(t, "")
	m.WrongRescueKey.Store(true)
	config := robotHost(m, nil, fmt.Sprintf(`machine_id = "%d"`, n))
	offered := func(s *terraform.State) error {
		fp := regexp.QuoteMeta(ssh.FingerprintSHA256(mach.RescueHostKey()))
		return resource.TestMatchResourceAttr(addr, "reason", regexp.MustCompile(`offered .*`+fp))(s)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             m.CheckReleased(n, ""),
		Steps: []resource.TestStep{
			{
				Config: config,
				ExpectError: acctest.Match(fmt.Sprintf(`stopped in phase rescue\. .*[Tt]he host key at %s does not match its pin: expected .*%s.*, offered .*%s.*nothing was sent to this host`,
					regexp.QuoteMeta(mach.SSHAddr()), regexp.QuoteMeta(m.WrongKey.SHA256), `SHA256:`)),
			},
			{
				PreConfig: func() {
					if c := mach.Commands(); len(c) != 0 {
						t.Errorf("the machine behind a wrong host key ran %d commands, the first %q", len(c), c[0].Line)
					}
					if e := mach.EnvRequests(); len(e) != 0 {
						t.Errorf("env requests reached the machine behind a wrong host key: %+v", e)
					}
				},
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check:              resource.ComposeAggregateTestCheckFunc(failedStateChecks("rescue", regexp.MustCompile(`does not match its pin`)), offered),
			},
		},
	})
}

// TestRobotSSHDropDuringInstall: every SSH session is cut right after the
// detached installer was started, before its exit status reached the
// client. The apply reconnects, finds the installer running, waits for it
// and ends ready, with one install.
func TestRobotSSHDropDuringInstall(t *testing.T) {
	t.Parallel()
	m := acctest.NewMetal(t)
	n, mach := m.AddServer(t, "")
	config := robotHost(m, nil, fmt.Sprintf(`machine_id = "%d"`, n))
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             m.CheckReleased(n, ""),
		Steps: []resource.TestStep{{
			// The installer's start (setsid -f) is the command cut; the
			// check below proves the drop cut that one.
			PreConfig:         func() { mach.DropSessionsAfterCommand("setsid -f ") },
			Config:            config,
			ConfigStateChecks: readyChecks(m, t, n),
			Check: resource.ComposeAggregateTestCheckFunc(installsOn(mach, 1), func(*terraform.State) error {
				for _, c := range mach.Commands() {
					if c.Exit == -1 && !c.Detached {
						if !strings.HasPrefix(c.Line, "setsid -f ") {
							return fmt.Errorf("the drop cut %q, not the installer's start", c.Line)
						}
						return nil
					}
				}
				return fmt.Errorf("no session was cut, so the test proves nothing")
			}),
		}},
	})
}

// TestRobotInstallerFailureThenRerun: installimage fails; the apply ends
// with the host in state, phase failed in installing with the failing step
// as reason, so Terraform taints it. With the fault cleared, the next
// apply replaces the tainted host: its destroy releases the server, the
// new host claims the same server again by its key (account and hostname)
// and installs it, and it ends ready on the same machine.
func TestRobotInstallerFailureThenRerun(t *testing.T) {
	t.Parallel()
	installerFailureThenRerun(t, "lifecycle {\n    create_before_destroy = true\n  }", plancheck.ResourceActionCreateBeforeDestroy)
}

// TestRobotInstallerFailureThenReplace: the same with Terraform's default
// replace of the tainted host, whose destroy releases the machine before the
// create claims it afresh: the adapter takes the failed install it finds
// there for an earlier attempt's and installs anew.
func TestRobotInstallerFailureThenReplace(t *testing.T) {
	t.Parallel()
	installerFailureThenRerun(t, "", plancheck.ResourceActionDestroyBeforeCreate)
}

func installerFailureThenRerun(t *testing.T, lifecycle string, replace plancheck.ResourceActionType) {
	m := acctest.NewMetal(t)
	n, mach := m.AddServer(t, "")
	mach.FailInstall("installimage: cannot partition /dev/nvme1n1")
	config := robotHost(m, nil, fmt.Sprintf(`machine_id = "%d"`, n), lifecycle)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             m.CheckReleased(n, ""),
		Steps: []resource.TestStep{
			{
				Config:      config,
				ExpectError: acctest.Match(fmt.Sprintf(`Host "db-1" \(machine %d\) stopped in phase installing\. It is saved in state with phase failed.*installimage`, n)),
			},
			{
				PreConfig: func() {
					if got := mach.Installs(); got != 1 {
						t.Errorf("the failed apply ran installimage %d times, want 1", got)
					}
					if s, _ := m.Server(n); !strings.HasPrefix(s.Name, "db-1~cm~") {
						t.Errorf("the failed apply left server %d named %q, not claimed", n, s.Name)
					}
					mach.ClearFaults()
				},
				RefreshState:       true,
				ExpectNonEmptyPlan: true,
				Check:              failedStateChecks("installing", regexp.MustCompile(`installimage`)),
			},
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, replace),
				}},
				ConfigStateChecks: readyChecks(m, t, n),
				Check:             installsOn(mach, 2),
			},
		},
	})
}

// TestRobotLostOrderAnswer: the webservice takes the order and its answer
// is lost. The create's retry finds the order in flight instead of placing
// another: one transaction, one server, and the host ends ready on it.
func TestRobotLostOrderAnswer(t *testing.T) {
	t.Parallel()
	m := acctest.NewMetal(t)
	m.Robot.SetOrderPace(robotemu.OrderPace{Polls: 2})
	if err := m.Robot.LoseNextOrders(1); err != nil {
		t.Fatal(err)
	}
	config := robotHost(m, []string{"allow_order = true"}, `offer_id = "AX42"`, `max_monthly_price = 60`)
	var number int
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             func(s *terraform.State) error { return m.CheckReleased(number, "")(s) },
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("phase"), knownvalue.StringExact("ready")),
			},
			Check: func(*terraform.State) error {
				if left := m.Robot.Faults().Rules(); len(left) != 0 {
					return fmt.Errorf("the lost answer was never met: %+v", left)
				}
				servers := m.Robot.Servers()
				if len(servers) != 1 {
					return fmt.Errorf("the account holds %d servers, want the one ordered", len(servers))
				}
				number = servers[0].Number
				if got, err := m.Transactions(); err != nil || got != 1 {
					return fmt.Errorf("%d orders (%v), want 1: the retry ordered again", got, err)
				}
				return nil
			},
		}},
	})
}
