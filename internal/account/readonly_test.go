package account_test

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

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

// TestAccountTokenTurnedReadOnlyShowsInHealth: a token that becomes
// read-only after the account was applied shows in health on refresh,
// which never fails.
func TestAccountTokenTurnedReadOnlyShowsInHealth(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
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
					resource.TestCheckResourceAttr(addr, "health.reachable", "false"),
					resource.TestMatchResourceAttr(addr, "health.reason", regexp.MustCompile(readOnlyReason)),
				),
			},
		},
	})
}
