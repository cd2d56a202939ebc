package bootstrap_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
)

// robotHostAs is compute_bootstrap_host.db on server n, its account
// written as acctest.Metal.AccountAs writes it.
func robotHostAs(m *acctest.Metal, n int, password, endpoint, sshPort string, account ...string) string {
	return m.AccountAs(password, endpoint, sshPort, account...) + fmt.Sprintf(`
resource "compute_bootstrap_host" "db" {
  account    = compute_provider_account.robot.id
  hostname   = "db-1"
  machine_id = "%d"
  image      = %q
  %s
}
`, n, robotImage, m.FirstBoot())
}

// untouchedHost checks that server n still carries the claim name it had
// (*name), was installed once, and that no write reached the webservice
// since *before.
func untouchedHost(m *acctest.Metal, n int, mach interface{ Installs() int }, name *string, before *map[string]int) resource.TestCheckFunc {
	return func(s *terraform.State) error {
		srv, ok := m.Server(n)
		if !ok || srv.Name != *name {
			return fmt.Errorf("server %d is named %q, want %q as before", n, srv.Name, *name)
		}
		if c, err := m.Cancelled(n); err != nil || c {
			return fmt.Errorf("server %d: cancelled %v (%v)", n, c, err)
		}
		if err := installsOn(mach, 1)(s); err != nil {
			return err
		}
		return acctest.NoWritesSince(*before, m.Robot.Stats())
	}
}

// TestRobotHostAccountChangesRepointInPlace: the password behind another
// reference, another ssh_port, the endpoint with a trailing slash,
// cancel_on_destroy on and off again: each re-points the host in place
// (or changes nothing), the server is not released, reset, renamed or
// cancelled, nothing is installed again, and the next plan is empty.
func TestRobotHostAccountChangesRepointInPlace(t *testing.T) {
	t.Parallel()
	m := acctest.NewMetal(t)
	n, mach := m.AddServer(t, "")
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
			Check: untouchedHost(m, n, mach, &name, &before),
		}
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             m.CheckReleased(n, ""),
		Steps: []resource.TestStep{
			{
				Config: robotHostAs(m, n, "", "", ""),
				Check: func(*terraform.State) error {
					s, _ := m.Server(n)
					name = s.Name
					return nil
				},
			},
			step(robotHostAs(m, n, rotated, "", ""), plancheck.ResourceActionUpdate),
			step(robotHostAs(m, n, rotated, "", "2222"), plancheck.ResourceActionUpdate),
			step(robotHostAs(m, n, rotated, m.Endpoint+"/", "2222"), plancheck.ResourceActionNoop),
			step(robotHostAs(m, n, rotated, m.Endpoint+"/", "2222", `cancel_on_destroy = true`), plancheck.ResourceActionUpdate),
			step(robotHostAs(m, n, "", "", ""), plancheck.ResourceActionUpdate),
		},
	})
}

// TestRobotHostAccountOfAnotherUserFails: an account on another webservice
// (another Robot user, whose server of the same number is another machine)
// fails the plan on account with the way out, and the apply when the
// account is known only then (its plan, or Update when that plan cannot
// read the server); nothing is written on either.
func TestRobotHostAccountOfAnotherUserFails(t *testing.T) {
	t.Parallel()
	m := acctest.NewMetal(t)
	other := acctest.NewMetal(t)
	n, mach := m.AddServer(t, "")
	if o, _ := other.AddServer(t, ""); o != n {
		t.Fatalf("the other webservice numbers its server %d, not %d: the test wants the same number on both", o, n)
	}
	// Only the account differs: the host's first boot is as it was.
	on := func(w *acctest.Metal) string {
		return strings.Replace(robotHostAs(w, n, "", "", ""), w.FirstBoot(), m.FirstBoot(), 1)
	}
	// The endpoint through terraform_data: a change leaves the account
	// unknown until apply.
	deferred := func(w *acctest.Metal) string {
		return strings.Replace(on(w), fmt.Sprintf("endpoint        = %q", w.Endpoint), "endpoint        = terraform_data.endpoint.output", 1) +
			fmt.Sprintf("\nresource \"terraform_data\" \"endpoint\" {\n  input = %q\n}\n", w.Endpoint)
	}
	var name string
	var before, otherBefore map[string]int
	nothingWritten := func() {
		if err := acctest.NoWritesSince(otherBefore, other.Robot.Stats()); err != nil {
			t.Fatalf("on the other webservice: %v", err)
		}
		if err := acctest.NoWritesSince(before, m.Robot.Stats()); err != nil {
			t.Fatal(err)
		}
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             m.CheckReleased(n, ""),
		Steps: []resource.TestStep{
			{
				Config: deferred(m),
				Check: func(*terraform.State) error {
					s, _ := m.Server(n)
					name = s.Name
					return nil
				},
			},
			{
				PreConfig: func() {
					// As the holder's first refresh left it: that refresh
					// confirmed its claim, the one write before.
					before, otherBefore = acctest.Writes(m.Robot.Stats()), acctest.Writes(other.Robot.Stats())
					if s, ok := m.Server(n); ok {
						name = s.Name
					}
				},
				Config:   on(other),
				PlanOnly: true,
				ExpectError: acctest.Match(fmt.Sprintf(`(?s)Unable to reach machine through new account.*machine %d \(host "db-1"\) is not reached through the new account.*`+
					`does not carry this state's claim.*taint ADDRESS.*state rm ADDRESS.*removed \{\}`, n)),
			},
			{
				PreConfig:   nothingWritten,
				Config:      deferred(other),
				ExpectError: acctest.Match(`(?s)Error running apply.*machine \d+ \(host "db-1"\) is not reached through the new account.*taint ADDRESS`),
			},
			{
				// Back on the account in state: unknown at plan again, so an
				// update that changes nothing; the next plan is empty.
				PreConfig:        nothingWritten,
				Config:           deferred(m),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate)}},
				Check:            untouchedHost(m, n, mach, &name, &before),
			},
			{
				// The apply's own plan cannot read the server through the new
				// account (one 503): Update proves it before writing anything.
				PreConfig: func() {
					nothingWritten()
					if err := other.Robot.Faults().AddRule(faults.Rule{Method: "GET", Path: "/server/{id}", Count: 1, Status: 503, Code: "UNAVAILABLE"}); err != nil {
						t.Fatal(err)
					}
				},
				Config:      deferred(other),
				ExpectError: acctest.Match(`(?s)Unable to update bootstrap host.*machine \d+ \(host "db-1"\) is not reached through the new account`),
			},
			{
				PreConfig: func() {
					nothingWritten()
					if left := other.Robot.Faults().Rules(); len(left) != 0 {
						t.Fatalf("the 503 was not met: %+v", left)
					}
				},
				Config: deferred(m),
				Check:  untouchedHost(m, n, mach, &name, &before),
			},
		},
	})
}

// TestRobotHostImportWithAnotherSpelling imports a host by an id whose
// account part spells the endpoint with a trailing slash: the import takes
// the account as compute_provider_account spells it, the first apply only
// writes the mark, and the next plan is empty.
func TestRobotHostImportWithAnotherSpelling(t *testing.T) {
	t.Parallel()
	m := acctest.NewMetal(t)
	n, mach := m.AddServer(t, "")
	slashed := adapter.Locator{Kind: "robot", Name: "robot", Settings: map[string]string{
		"user": m.SecretRef("user"), "password": m.SecretRef("password"), "endpoint": m.Endpoint + "/",
		"ssh_key": m.KeyFingerprint, "ssh_private_key": m.SecretRef("id_ed25519"), "ssh_port": fmt.Sprint(m.Farm.SSHPort()),
	}}
	cfg := robotHostAs(m, n, "", "", "") + fmt.Sprintf(`
import {
  to = compute_bootstrap_host.db
  id = %q
}
`, adapter.InstanceID(slashed, fmt.Sprint(n)))
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             m.CheckReleased(n, ""),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					acctest.ExpectUnchanged(addr, "account"),
				}},
				Check: installsOn(mach, 0),
			},
			{Config: cfg, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
		},
	})
}
