package account_test

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
)

const addr = "compute_provider_account.test"

// TestAccountCreateReadImport runs against any target (acctest.NewTarget).
func TestAccountCreateReadImport(t *testing.T) {
	t.Parallel()
	tg := acctest.NewTarget(t)
	wantID := regexp.QuoteMeta(tg.AccountID())
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{
				Config: tg.Account(),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
					// The id is the locator, known before anything is applied.
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile("^"+wantID+"$"))),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("hetzner_cloud").AtMapKey("location"), knownvalue.StringExact(tg.Location)),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("adapter"), knownvalue.StringExact("hcloud")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("health").AtMapKey("reachable"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("health").AtMapKey("reason"), knownvalue.StringExact("")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("health").AtMapKey("checked_at"), knownvalue.StringRegexp(regexp.MustCompile(`^\d{4}-\d\d-\d\dT`))),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("hetzner_cloud").AtMapKey("endpoint"), knownvalue.StringExact(tg.Locator().Settings["endpoint"])),
				},
			},
			{
				// Nothing changed: the plan is empty.
				Config: tg.Account(),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectEmptyPlan(),
				}},
			},
			{
				ResourceName:      addr,
				ImportState:       true,
				ImportStateVerify: true,
				// health is checked anew.
				ImportStateVerifyIgnore: []string{"health"},
			},
		},
	})
}

func TestAccountRenameIsInPlace(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: e.Account()},
			{
				Config: regexp.MustCompile(`name = "test"`).ReplaceAllString(e.Account(), `name = "renamed"`),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact("renamed")),
				},
			},
		},
	})
}

func TestAccountRefusedToken(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config:      e.AccountNamed("test", "env://"+acctest.WrongTokenEnv),
			ExpectError: acctest.Match(`the token at env://` + acctest.WrongTokenEnv + ` was refused`),
		}},
	})
}

func TestAccountValidation(t *testing.T) {
	t.Parallel()
	cases := map[string]planError{
		"raw token":           {`hetzner_cloud = { token = "abcdefSECRET" }`, `hetzner_cloud.token must be a secret reference, never the secret: the value is not a secret reference \(the value is not shown`},
		"unknown scheme":      {`hetzner_cloud = { token = "vault://x" }`, `scheme "vault" is not known`},
		"plain http":          {`hetzner_cloud = { token = "env://X", endpoint = "http://example.com/v1" }`, `hetzner_cloud.endpoint = "http://example.com/v1" is refused: .*plain http`},
		"bad location":        {`hetzner_cloud = { token = "env://X", location = "Not A Location" }`, `hetzner_cloud.location \(the value is not repeated here: messages repeat only plain words, URLs and secret references\) is refused: .*not a Hetzner Cloud location name`},
		"bad location, plain": {`hetzner_cloud = { token = "env://X", location = "fsn_1" }`, `hetzner_cloud.location = "fsn_1" is refused: .*not a Hetzner Cloud location name`},
		"no block":            {``, `needs exactly one adapter block`},
		// A public setting's value is repeated, and every problem of
		// the flavors is told in one plan.
		"bad flavors": {`proxmox = { endpoint = "https://pve.example.com:8006", api_token = "env://X", flavors = jsonencode({ small = { cores = 0, memory_mib = 1, disk_gib = 0 } }) }`,
			`proxmox.flavors = ".*small.*" is refused: .*flavor "small": cores must be from 1 to 512, not 0; flavor "small": memory_mib must be at least 16 \(MiB\), e.g. 2048, not 1; flavor "small": disk_gib must be at least 1 \(GiB\), not 0`},
		"bad tls_fingerprint": {`proxmox = { endpoint = "https://pve.example.com:8006", api_token = "env://X", tls_fingerprint = "5D:5D", flavors = jsonencode({ small = { cores = 1, memory_mib = 512, disk_gib = 2 } }) }`,
			`proxmox.tls_fingerprint = "5D:5D" is refused: .*not a SHA-256 fingerprint`},
	}
	expectPlanErrors(t, "name = \"x\"\n  ", cases)
}

// TestAccountHealthDuringOutage refreshes while the backend fails: the
// check is retried until the read timeout, then the refresh succeeds and
// health records the outage.
func TestAccountHealthDuringOutage(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	cfg := withTimeouts(e.Account(), `read = "1s"`)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: cfg},
			{
				PreConfig: func() {
					e.ResetStats()
					e.FailNext("GET", "/locations", 100000, 503, "unavailable")
				},
				RefreshState: true,
				Check: resource.ComposeAggregateTestCheckFunc(
					resource.TestCheckResourceAttr(addr, "health.reachable", "false"),
					resource.TestMatchResourceAttr(addr, "health.reason", regexp.MustCompile(`health check: retried for \d+s .*the Hetzner Cloud API failed \(HTTP 503 unavailable\)`)),
					func(*terraform.State) error {
						if n := e.Stats()["GET /locations"]; n < 2 {
							return fmt.Errorf("the check ran %d times during the outage, want it retried", n)
						}
						return nil
					},
				),
			},
			{
				PreConfig: func() { e.FailNext("GET", "/locations", 0, 503, "unavailable") },
				Config:    cfg,
			},
		},
	})
}

// TestAccountHealthRidesOutBackendFailures: a check the API answers 503,
// 503 and 500 is retried, on create and on refresh, and finds the account
// reachable.
func TestAccountHealthRidesOutBackendFailures(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	fail := func() {
		e.FailNext("GET", "/locations", 2, 503, "unavailable")
		e.FailNext("GET", "/locations", 1, 500, "server_error")
	}
	usedUp := e.FaultsUsedUp
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{
				PreConfig: fail,
				Config:    e.Account(),
				Check:     resource.ComposeAggregateTestCheckFunc(resource.TestCheckResourceAttr(addr, "health.reachable", "true"), usedUp),
			},
			{
				PreConfig:    fail,
				RefreshState: true,
				Check:        resource.ComposeAggregateTestCheckFunc(resource.TestCheckResourceAttr(addr, "health.reachable", "true"), usedUp),
			},
		},
	})
}

// TestAccountTimeoutsMustBePositive: a timeout of no time is refused at plan
// time on its attribute.
func TestAccountTimeoutsMustBePositive(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	for op, v := range map[string]string{"create": "0s", "read": "-5m", "update": "0"} {
		resource.UnitTest(t, resource.TestCase{
			ProtoV6ProviderFactories: acctest.Factories(),
			Steps: []resource.TestStep{{
				Config:      withTimeouts(e.Account(), op+" = \""+v+"\""),
				PlanOnly:    true,
				ExpectError: acctest.Match(`timeouts\.` + op + ` = "` + v + `" is not a positive duration.*or remove ` + op + ` to use the default \(2m\)`),
			}},
		})
	}
}

// withTimeouts adds a timeouts block to an account configuration.
func withTimeouts(account, lines string) string {
	i := strings.LastIndex(account, "}")
	return account[:i] + "  timeouts {\n    " + lines + "\n  }\n" + account[i:]
}
