package provider_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestSecretsUnknownAtPlan: the provider block's secrets come from a
// resource that does not exist yet. The plan goes through (catalog checks
// step aside) and the apply, where the value is known, creates the machine.
func TestSecretsUnknownAtPlan(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	cfg := `
resource "terraform_data" "token" {
  input = "` + acctest.Token + `"
}

provider "compute" {
  secrets = { hcloud = terraform_data.token.output }
}
` + e.AccountNamed("test", "provider://hcloud") + `
resource "compute_instance" "web" {
  account  = compute_provider_account.test.id
  name     = "late-1"
  offer_id = "cx22"
  image    = "ubuntu-24.04"
}
`
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             e.CheckDestroy,
		Steps: []resource.TestStep{{
			Config: cfg,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectResourceAction("compute_instance.web", plancheck.ResourceActionCreate),
				plancheck.ExpectKnownValue("compute_provider_account.test", tfjsonpath.New("id"), knownvalue.NotNull()),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("compute_instance.web", tfjsonpath.New("state"), knownvalue.StringExact("running")),
				statecheck.ExpectKnownValue("compute_provider_account.test", tfjsonpath.New("health").AtMapKey("reachable"), knownvalue.Bool(true)),
			},
		}},
	})
}

func TestSecretNamesValidated(t *testing.T) {
	t.Parallel()
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config: `
provider "compute" {
  secrets = { "a/b" = "x" }
}
resource "compute_provider_account" "x" {
  name          = "x"
  hetzner_cloud = { token = "provider://a/b" }
}
`,
			PlanOnly:    true,
			ExpectError: acctest.Match(`secrets key "a/b" cannot be named by a provider:// reference`),
		}},
	})
}
