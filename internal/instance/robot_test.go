package instance_test

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

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	robotemu "github.com/seedcompute/terraform-provider-compute/internal/emulator/robot"
)

// These tests run compute_instance on a Hetzner Robot account against the
// Robot webservice emulator and the SSH farm behind it (acctest.Metal). On
// Robot an instance is a rented server claimed as it is: nothing is
// installed, so the SSH farm sees no command.

const robotImage = "Ubuntu-2404-noble-amd64-base"

// robotInstance is the Robot account plus compute_instance.web of offer
// AX42 named name, with extra lines.
func robotInstance(m *acctest.Metal, name string, extra ...string) string {
	// A destroy that waited for a released server to vanish would wait
	// forever; the delete timeout makes such a wait fail the test soon.
	return m.Account() + acctest.InstanceBlock{Resource: "web", Account: "robot", Name: name, Offer: "AX42", Image: robotImage}.HCL(append([]string{`timeouts { delete = "30s" }`}, extra...)...)
}

// claimedFor checks that server n's name in Robot carries the claim mark of
// an instance named name.
func claimedFor(m *acctest.Metal, n int, name string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		s, ok := m.Server(n)
		if !ok {
			return fmt.Errorf("server %d is gone", n)
		}
		if !regexp.MustCompile(`^` + regexp.QuoteMeta(name) + `~cm~[0-9a-f]{32}~[0-9a-f]{8}~[eE]$`).MatchString(s.Name) {
			return fmt.Errorf("server %d is named %q in Robot, not claimed for %q", n, s.Name, name)
		}
		return nil
	}
}

// TestRobotInstanceLifecycle: an instance of a rented product claims the
// free server of that product (not the one already named in Robot, nor
// one of another product), installs nothing, plans clean, renames in place
// (the mark follows the name), verifies its import, and destroy releases
// the server, unnamed again and not cancelled.
func TestRobotInstanceLifecycle(t *testing.T) {
	t.Parallel()
	m := acctest.NewMetal(t)
	other, _ := m.AddServer(t, "EX44")
	named, err := m.Robot.AddServer(robotemu.ServerSeed{Product: "AX42", Name: "kept-by-ops"})
	if err != nil {
		t.Fatal(err)
	}
	n, mach := m.AddServer(t, "AX42")
	untouched := func(*terraform.State) error {
		if c := mach.Commands(); len(c) != 0 {
			return fmt.Errorf("an instance on Robot ran %d SSH commands on its server (%q…); it must install nothing", len(c), c[0].Line)
		}
		for _, s := range []struct {
			n    int
			name string
		}{{other, ""}, {named.Number, "kept-by-ops"}} {
			if got, _ := m.Server(s.n); got.Name != s.name {
				return fmt.Errorf("server %d, which the instance must not claim, is named %q, want %q", s.n, got.Name, s.name)
			}
		}
		return nil
	}
	id := regexp.MustCompile(fmt.Sprintf(`^%d$`, n))
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             m.CheckReleased(n, ""),
		Steps: []resource.TestStep{
			{
				Config: robotInstance(m, "web-1"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("location"), knownvalue.StringExact("fsn1")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringRegexp(id)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("state"), knownvalue.StringExact("running")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("managed"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("ipv4_address"), knownvalue.StringExact(serverIP(m, n))),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("image"), knownvalue.StringExact(robotImage)),
				},
				Check: resource.ComposeAggregateTestCheckFunc(claimedFor(m, n, "web-1"), untouched),
			},
			{
				Config:           robotInstance(m, "web-1"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
			{
				Config: robotInstance(m, "web-2"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringRegexp(id)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact("web-2")),
				},
				Check: resource.ComposeAggregateTestCheckFunc(claimedFor(m, n, "web-2"), untouched),
			},
			{
				Config:            robotInstance(m, "web-2"),
				ResourceName:      addr,
				ImportState:       true,
				ImportStateIdFunc: acctest.ImportID(addr),
				ImportStateVerify: true,
				// Robot does not say what a server runs, and user data
				// and timeouts are never read back.
				ImportStateVerifyIgnore: []string{"image", "user_data", "user_data_sha256", "timeouts"},
			},
			{
				Config:           robotInstance(m, "web-2"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            untouched,
			},
		},
	})
}

// TestRobotInstanceUserDataRefused: Robot takes no user data, so an
// instance with user_data is refused at plan, naming the attribute, with the
// way out (compute_bootstrap_host), before any server is claimed. The
// refusal is on the resource, not the attribute, so Terraform 1.15 and
// later do not print the heredoc: ErrorCheck reads the whole output.
func TestRobotInstanceUserDataRefused(t *testing.T) {
	t.Parallel()
	m := acctest.NewMetal(t)
	n, mach := m.AddServer(t, "AX42")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             m.CheckReleased(n, ""),
		ErrorCheck: func(err error) error {
			switch {
			case strings.Contains(err.Error(), "HEREDOC-SENTINEL"):
				return fmt.Errorf("the output shows the user data: %w", err)
			case acctest.Match(`user_data: Robot servers take no user data.*compute_bootstrap_host`).MatchString(err.Error()):
				return nil
			}
			return err
		},
		Steps: []resource.TestStep{
			{
				Config:   robotInstance(m, "web-1", "user_data = <<-EOT\n    #cloud-config\n    password: HEREDOC-SENTINEL\n  EOT"),
				PlanOnly: true,
			},
			{
				// The refused step must have claimed nothing.
				PreConfig: func() {
					if s, _ := m.Server(n); s.Name != "" || len(mach.Commands()) != 0 {
						t.Errorf("server %d is named %q and ran %d commands after a refused create", n, s.Name, len(mach.Commands()))
					}
				},
				Config: m.Account(),
			},
		},
	})
}

func serverIP(m *acctest.Metal, n int) string {
	s, _ := m.Server(n)
	return s.IP
}
