package account_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// readOnlyReason is what health says of a token that may only read.
const readOnlyReason = `token is read-only: it cannot create servers; create a Read & Write API token`

// TestAccountReadOnlyTokenFailsApply: a read-only token passes every read,
// so only the health check's write probe can tell; the apply of a new
// account fails on the token, with the reason and the way out, and changes
// nothing.
func TestAccountReadOnlyTokenFailsApply(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config:      e.AccountNamed("test", "env://"+acctest.ReadOnlyTokenEnv),
			ExpectError: acctest.Match(`Unable to create provider account.*env://` + acctest.ReadOnlyTokenEnv + ` was refused.*` + readOnlyReason),
		}},
	})
	if n := e.Stats()["PUT /ssh_keys/{id}"]; n == 0 {
		t.Error("the apply never sent the write probe, so the error came from elsewhere")
	}
	if len(e.Servers()) != 0 {
		t.Errorf("the check changed the project: %+v", e.Servers())
	}
}

// probes counts the write probes the emulator received.
func probes(e *acctest.Emulator) int { return e.Stats()["PUT /ssh_keys/{id}"] }

// TestAccountOnlyApplyProbesWrite: the write probe is sent once per apply
// of the account; the plans before and after it, refreshes and the destroy
// only read.
func TestAccountOnlyApplyProbesWrite(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: e.Account()},
			{Config: e.Account(), PlanOnly: true},
			{RefreshState: true},
		},
	})
	if n := probes(e); n != 1 {
		t.Errorf("the write probe was sent %d times, want once: by the apply", n)
	}
	if n := e.Stats()["GET /locations"]; n < 4 {
		t.Errorf("%d location reads: the plans and refreshes did not run the health check's read", n)
	}
}

// TestAccountTokenTurnedReadOnly: a token that becomes read-only after the
// account was applied passes refreshes, which only read; the next apply of
// the account (a rename) proves the write, and health records that the
// backend was reached and the token cannot create, without failing the
// rename.
func TestAccountTokenTurnedReadOnly(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	renamed := strings.Replace(e.Account(), `name = "test"`, `name = "renamed"`, 1)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{
				Config: e.Account(),
				Check:  resource.TestCheckResourceAttr(addr, "health.reachable", "true"),
			},
			{
				PreConfig:    func() { e.SetReadOnlyToken(acctest.Token) },
				RefreshState: true,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "health.reachable", "true"),
					resource.TestCheckResourceAttr(addr, "health.reason", ""),
					func(*terraform.State) error {
						if n := probes(e); n != 1 {
							return fmt.Errorf("%d write probes by now, want only the first apply's", n)
						}
						return nil
					},
				),
			},
			{
				Config: renamed,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "name", "renamed"),
					resource.TestCheckResourceAttr(addr, "health.reachable", "true"),
					resource.TestMatchResourceAttr(addr, "health.reason", regexp.MustCompile(readOnlyReason)),
				),
			},
		},
	})
}
