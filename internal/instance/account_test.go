package instance_test

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestInstanceAccountChange moves the instance to another token reference
// of the same backend (in place, with a new id known at plan time), then to
// another backend, which does not reach the machine: refused at plan, never
// a replacement.
func TestInstanceAccountChange(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	other := acctest.NewEmulator(t)
	withAccount := func(account string) string {
		return fmt.Sprintf(`
provider "compute" {
  secrets = { hcloud = %q }
}
%s
resource "compute_instance" "web" {
  account  = compute_provider_account.test.id
  name     = "mover-1"
  offer_id = "cx22"
  image    = "ubuntu-24.04"
}
`, acctest.Token, account)
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy: func(s *terraform.State) error {
			if err := e.CheckDestroy(s); err != nil {
				return err
			}
			return other.CheckDestroy(s)
		},
		Steps: []resource.TestStep{
			{Config: withAccount(e.Account())},
			{
				Config: withAccount(e.AccountNamed("test", "provider://hcloud")),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					// The machine keeps its id; its account is the new one.
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringRegexp(regexp.MustCompile(`^\d+$`))),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("account"), knownvalue.StringRegexp(regexp.MustCompile(`"token":"provider://hcloud"`))),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("account"), knownvalue.StringRegexp(regexp.MustCompile(`"token":"provider://hcloud"`))),
				},
				Check: checkServers(e, 1),
			},
			{
				Config:      withAccount(other.AccountNamed("test", "provider://hcloud")),
				PlanOnly:    true,
				ExpectError: acctest.Match(`Unable to reach machine through new account`),
			},
			{
				Config: withAccount(e.AccountNamed("test", "provider://hcloud")),
				Check:  resource.ComposeAggregateTestCheckFunc(checkServers(e, 1), checkServers(other, 0)),
			},
		},
	})
}

// TestInstanceSecretRotationWayOut: the account's secret reference changes
// and the old one no longer resolves. The refresh reads through the account
// recorded in state, so it fails, and its error must say how to get past it.
func TestInstanceSecretRotationWayOut(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	withSecrets := func(secrets, ref string) string {
		return fmt.Sprintf(`
provider "compute" {
  secrets = %s
}
%s
resource "compute_instance" "web" {
  account  = compute_provider_account.test.id
  name     = "rotate-1"
  offer_id = "cx22"
  image    = "ubuntu-24.04"
}
`, secrets, e.AccountNamed("test", ref))
	}
	old := fmt.Sprintf("{ old = %q }", acctest.Token)
	both := fmt.Sprintf("{ old = %q, new = %q }", acctest.Token, acctest.Token)
	renamed := fmt.Sprintf("{ new = %q }", acctest.Token)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             e.CheckDestroy,
		Steps: []resource.TestStep{
			{Config: withSecrets(old, "provider://old")},
			{
				Config:      withSecrets(renamed, "provider://new"),
				ExpectError: acctest.Match(`through the account recorded in state .*terraform apply -refresh=false once`),
			},
			{Config: withSecrets(both, "provider://new"), Check: checkServers(e, 1)},
		},
	})
}
