package account_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// TestAccountTwoAdapterBlocks: with two adapter kinds registered, an account
// that sets both blocks is refused on the second, naming both.
func TestAccountTwoAdapterBlocks(t *testing.T) {
	t.Parallel()
	kind := func(name string) adapter.Definition {
		return adapter.Definition{
			Kind:        name,
			Description: "A test backend.",
			Settings:    []adapter.Setting{{Name: "token", Description: "secret reference", Required: true, Role: adapter.RoleSecret}},
		}
	}
	reg := adapter.NewRegistry(kind("alpha"), kind("beta"))
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: map[string]func() (tfprotov6.ProviderServer, error){
			"compute": providerserver.NewProtocol6WithError(provider.New("test", provider.WithRegistry(reg))()),
		},
		Steps: []resource.TestStep{{
			Config: `
resource "compute_provider_account" "test" {
  name  = "x"
  alpha = { token = "env://A" }
  beta  = { token = "env://B" }
}
`,
			PlanOnly:    true,
			ExpectError: acctest.Match(`compute_provider_account sets both alpha and beta; an account has exactly one adapter\. Remove one, or write a second account\.`),
		}},
	})
}
