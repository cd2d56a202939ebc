package machines_test

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// basic is an adapter without an inventory: it lists offers, which its
// account's health check asks for, and nothing this data source needs.
type basic struct{ adapter.Adapter }

func (basic) Kind() string { return "basic" }
func (basic) ListOffers(context.Context, adapter.Query) ([]adapter.Offer, error) {
	return []adapter.Offer{}, nil
}

// withBasic serves the provider with the shipped adapters plus basic.
func withBasic() map[string]func() (tfprotov6.ProviderServer, error) {
	shipped, err := provider.DefaultRegistry().Definition("hcloud")
	if err != nil {
		panic(err)
	}
	def := adapter.Definition{
		Kind:        "basic",
		Description: "An adapter without an inventory.",
		Settings:    []adapter.Setting{{Name: "token", Description: "token reference", Required: true, Role: adapter.RoleSecret}},
		New: func(map[string]string, adapter.Env) (adapter.Adapter, error) {
			return basic{}, nil
		},
	}
	p := provider.New("test", provider.WithRegistry(adapter.NewRegistry(shipped, def)), provider.WithClock(acctest.FastClock{}))
	return map[string]func() (tfprotov6.ProviderServer, error){"compute": providerserver.NewProtocol6WithError(p())}
}

const refused = `accounts\[%s\] \(account (?:basic|"b" \(basic\))\) is an account of the basic adapter, which cannot list ` +
	`every machine of an account \(it lacks the inventory capability\), and only accounts of the hcloud adapter can be listed\. ` +
	`Remove it from accounts, and import its machines one by one: an import block with id = "ACCOUNT_ID/MACHINE_ID" for each\.`

// TestMachinesRefuseAccountWithoutInventory: an account whose adapter
// cannot list every machine is refused on its list index with the way out,
// when the configuration is validated if its id is known then, and
// otherwise right before the data source is read; no account is listed.
func TestMachinesRefuseAccountWithoutInventory(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: withBasic(),
		Steps: []resource.TestStep{
			{
				// Known when the configuration is validated.
				Config: e.Account() + `
data "compute_machines" "q" {
  accounts = [compute_provider_account.test.id, "basic:token=env%3A%2F%2F` + acctest.TokenEnv + `"]
}
`,
				PlanOnly:    true,
				ExpectError: acctest.Match(`Unable to use compute_machines argument.*` + fmtRefused("1")),
			},
			{
				// Unknown when the configuration is validated: Terraform
				// validates it again with the id before the read.
				Config: `
resource "compute_provider_account" "b" {
  name  = "b"
  basic = { token = "env://` + acctest.TokenEnv + `" }
}
data "compute_machines" "q" {
  accounts = [compute_provider_account.b.id]
}
`,
				ExpectError: acctest.Match(`Unable to use compute_machines argument.*` + fmtRefused("0")),
			},
		},
	})
	if n := e.Stats()["GET /servers"]; n != 0 {
		t.Errorf("the hcloud account was listed %d times in a read that was refused", n)
	}
}

func fmtRefused(i string) string { return sprintf(refused, i) }
