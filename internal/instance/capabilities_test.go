package instance_test

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// basic is an adapter with no optional abilities: it can create, read and
// delete, but not switch power, rename or relabel.
type basic struct {
	mu       sync.Mutex
	machines map[string]adapter.Machine
	next     int
}

func (b *basic) Kind() string { return "basic" }
func (b *basic) ListOffers(context.Context, adapter.Query) ([]adapter.Offer, error) {
	return []adapter.Offer{{ID: "small", Kind: adapter.KindVPS, Location: "here", VCPU: 1, Available: true}}, nil
}
func (b *basic) Create(_ context.Context, call adapter.Call, req adapter.CreateRequest) (adapter.Machine, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for _, m := range b.machines {
		if m.Key == call.IdempotencyKey {
			return m, nil
		}
	}
	b.next++
	m := adapter.Machine{ID: strconv.Itoa(b.next), Name: req.Name, State: adapter.StateRunning, RawState: "up",
		OfferID: req.OfferID, Image: req.Image, Location: "here", IPv4: "192.0.2.1", Labels: req.Labels,
		CreatedAt: time.Unix(0, 0), Managed: true, Key: call.IdempotencyKey, Fingerprint: adapter.Fingerprint(req)}
	b.machines[m.ID] = m
	return m, nil
}
func (b *basic) Get(_ context.Context, id string) (adapter.Machine, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if m, ok := b.machines[id]; ok {
		return m, nil
	}
	return adapter.Machine{}, adapter.Errorf(adapter.NotFound, "no machine %s", id)
}
func (b *basic) Delete(_ context.Context, id string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if _, ok := b.machines[id]; !ok {
		return adapter.Errorf(adapter.NotFound, "no machine %s", id)
	}
	delete(b.machines, id)
	return nil
}

func basicFactories(b *basic) map[string]func() (tfprotov6.ProviderServer, error) {
	def := adapter.Definition{
		Kind:        "basic",
		Description: "An adapter without optional abilities.",
		Settings:    []adapter.Setting{{Name: "token", Description: "token reference", Required: true, Role: adapter.RoleSecret}},
		New: func(map[string]string, adapter.Env) (adapter.Adapter, error) {
			return b, nil
		},
	}
	p := provider.New("test", provider.WithRegistry(adapter.NewRegistry(def)), provider.WithClock(acctest.FastClock{}))
	return map[string]func() (tfprotov6.ProviderServer, error){"compute": providerserver.NewProtocol6WithError(p())}
}

// TestInstanceCapabilitiesAtPlan: what the adapter cannot do is refused at
// plan time, on the attribute, before anything is applied.
func TestInstanceCapabilitiesAtPlan(t *testing.T) {
	t.Parallel()
	b := &basic{machines: map[string]adapter.Machine{}}
	cfg := func(extra string) string {
		return `
resource "compute_provider_account" "test" {
  name  = "basic"
  basic = { token = "env://` + acctest.TokenEnv + `" }
}
resource "compute_instance" "web" {
  account  = compute_provider_account.test.id
  offer_id = "small"
  image    = "plain"
  ` + extra + `
}
`
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: basicFactories(b),
		Steps: []resource.TestStep{
			{Config: cfg(`name = "web-1"`)},
			{
				Config:      cfg(`name = "web-1"` + "\n" + `power = "off"`),
				PlanOnly:    true,
				ExpectError: acctest.Match(`Unable to switch power.*power = "off" asks to switch the machine off, but the basic adapter cannot switch power`),
			},
			{
				Config:      cfg(`name = "web-2"`),
				PlanOnly:    true,
				ExpectError: acctest.Match(`Unable to rename machine in place.*the basic adapter cannot rename a machine. Set the name back to "web-1"`),
			},
		},
	})
}
