package offers_test

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// gpuCatalog is an adapter whose catalog has GPUs, which no shipped adapter
// has yet: it shows that gpu_model reaches the adapter and comes back.
type gpuCatalog struct{ adapter.Adapter }

func (gpuCatalog) Kind() string { return "gpus" }

func (gpuCatalog) ListOffers(_ context.Context, q adapter.Query) ([]adapter.Offer, error) {
	all := []adapter.Offer{
		{ID: "g-a100", Kind: adapter.KindMetal, Location: "here", VCPU: 32, MemoryGiB: 256, GPUs: 2, GPUModel: "NVIDIA A100-SXM4-80GB", PricePerHour: 3, Currency: "EUR", Available: true},
		{ID: "g-a1000", Kind: adapter.KindMetal, Location: "here", VCPU: 8, MemoryGiB: 64, GPUs: 1, GPUModel: "NVIDIA RTX A1000", PricePerHour: 1, Currency: "EUR", Available: true},
		{ID: "c-plain", Kind: adapter.KindVPS, Location: "here", VCPU: 2, MemoryGiB: 4, PricePerHour: 0.01, Currency: "EUR", Available: true},
	}
	out := []adapter.Offer{}
	for _, o := range all {
		if q.Match(o) {
			out = append(out, o)
		}
	}
	return out, nil
}

func gpuFactories() map[string]func() (tfprotov6.ProviderServer, error) {
	def := adapter.Definition{
		Kind:        "gpus",
		Description: "A catalog with GPUs.",
		Settings:    []adapter.Setting{{Name: "token", Description: "token reference", Required: true, Role: adapter.RoleSecret}},
		New:         func(map[string]string, adapter.Env) (adapter.Adapter, error) { return gpuCatalog{}, nil },
	}
	p := provider.New("test", provider.WithRegistry(adapter.NewRegistry(def)), provider.WithClock(acctest.FastClock{}))
	return map[string]func() (tfprotov6.ProviderServer, error){"compute": providerserver.NewProtocol6WithError(p())}
}

// TestOffersGPUModel: the model filter keeps whole words, and offers show
// their GPUs' count and model.
func TestOffersGPUModel(t *testing.T) {
	t.Parallel()
	cfg := func(filter string) string {
		return `
data "compute_offers" "q" {
  accounts  = ["gpus:token=env%3A%2F%2F` + acctest.TokenEnv + `"]
  ` + filter + `
}
`
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: gpuFactories(),
		Steps: []resource.TestStep{
			{
				Config: cfg(`gpu_model = "a100"`),
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(ds, tfjsonpath.New("offers"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"id":        knownvalue.StringExact("g-a100"),
						"gpus":      knownvalue.Int64Exact(2),
						"gpu_model": knownvalue.StringExact("NVIDIA A100-SXM4-80GB"),
					}),
				}))},
			},
			{
				Config:            cfg(`gpu_model = "H100"`),
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(ds, tfjsonpath.New("offers"), knownvalue.ListExact([]knownvalue.Check{}))},
			},
			{
				Config: cfg(``),
				ConfigStateChecks: []statecheck.StateCheck{statecheck.ExpectKnownValue(ds, tfjsonpath.New("offers"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact("c-plain"), "gpu_model": knownvalue.StringExact("")}),
					knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact("g-a1000")}),
					knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact("g-a100")}),
				}))},
			},
		},
	})
}
