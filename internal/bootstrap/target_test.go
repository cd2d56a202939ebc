package bootstrap_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// targetHost is the target's account plus compute_bootstrap_host.db on the
// server the target may claim, named name, with extra lines.
func targetHost(tg *acctest.Target, name string, extra ...string) string {
	return tg.Account() + fmt.Sprintf(`
resource "compute_bootstrap_host" "db" {
  account    = compute_provider_account.test.id
  machine_id = %q
  hostname   = %q
  image      = %q
  %s
}
`, tg.MachineID, name, tg.Image, strings.Join(extra, "\n  "))
}

// TestRobotBootstrapLifecycle claims the server the target names, installs
// it and waits until the installed system is ready, having learned its host
// key over the pinned rescue session; the next plan is empty, import
// verifies what an import can read, a ready_command is recorded in place,
// and destroy releases the server without cancelling it. It runs against any
// Hetzner Robot target (acctest.NewTargetOn): what it asks of the server, it
// asks the webservice. On the in-process emulators it also runs a first
// boot, checks what only they show (the installs, the SMBIOS UUID, the host
// key the installed system answers with) and logs the apply's wall time,
// requests by route and SSH commands.
func TestRobotBootstrapLifecycle(t *testing.T) {
	t.Parallel()
	tg := acctest.NewTargetOn(t, acctest.HetznerRobot)
	host := tg.Name("db-1")
	claimed := func(s *terraform.State) error {
		m, err := tg.Machine(host)
		if err != nil {
			return err
		}
		if id := s.RootModule().Resources[addr].Primary.ID; id != tg.MachineID || m.ID != tg.MachineID || !m.Managed {
			return fmt.Errorf("host id %s, server %+v; want server %s claimed for %s", id, m, tg.MachineID, host)
		}
		return nil
	}
	var (
		extra    []string
		emulated []statecheck.StateCheck
		installs = func(int) resource.TestCheckFunc { return func(*terraform.State) error { return nil } }
		start    time.Time
		logged   = func(*terraform.State) error { return nil }
		reset    = func() {}
	)
	if m := tg.Metal(); m != nil {
		n, _ := strconv.Atoi(tg.MachineID)
		mach := m.Machine(t, n)
		extra, emulated = []string{m.FirstBoot()}, readyChecks(m, t, n)
		installs = func(want int) resource.TestCheckFunc { return installsOn(mach, want) }
		reset = func() { m.Robot.ResetStats(); start = time.Now() }
		logged = func(*terraform.State) error {
			t.Logf("plan and apply of one bootstrap: %s; webservice requests by route: %v; SSH commands: %d",
				time.Since(start).Round(time.Millisecond), m.Robot.Stats(), len(mach.Commands()))
			return nil
		}
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             tg.CheckDestroy,
		Steps: []resource.TestStep{
			{
				PreConfig: reset,
				Config:    targetHost(tg, host, extra...),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("known_hosts")),
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("phase")),
				}},
				ConfigStateChecks: append([]statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(tg.MachineID)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("phase"), knownvalue.StringExact("ready")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("ready"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("failed_phase"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("rescue_host_key"), knownvalue.StringRegexp(regexp.MustCompile(`^[A-Z0-9]+ SHA256:`))),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("known_hosts"), knownvalue.NotNull()),
				}, emulated...),
				Check: resource.ComposeAggregateTestCheckFunc(tg.CheckMachines(1), claimed, installs(1), logged),
			},
			{
				Config:           targetHost(tg, host, extra...),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            installs(1),
			},
			{
				Config:            targetHost(tg, host, extra...),
				ResourceName:      addr,
				ImportState:       true,
				ImportStateIdFunc: acctest.ImportID(addr),
				ImportStateVerify: true,
				// An import reads the machine and its claim; what was
				// installed on it cannot be read back.
				ImportStateVerifyIgnore: []string{"image", "disks", "files", "first_boot", "ready_command", "timeouts",
					"product_uuid", "known_hosts", "rescue_host_key", "install_fingerprint", "offer_id", "location", "max_monthly_price"},
			},
			{
				Config: targetHost(tg, host, append(extra, `ready_command = ["/usr/bin/true"]`)...),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("ready_command"), knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("/usr/bin/true")})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("phase"), knownvalue.StringExact("ready")),
				},
				Check: resource.ComposeAggregateTestCheckFunc(tg.CheckMachines(1), claimed, installs(1)),
			},
		},
	})
}
