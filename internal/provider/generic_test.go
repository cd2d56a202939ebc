package provider_test

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// toy is a backend that exists only in this file, kept in memory. Its
// settings are named unlike any shipped adapter's, so the Terraform layer
// can reach them only through their roles.
type toy struct {
	mu       sync.Mutex
	machines map[string]adapter.Machine
	next     int
	// switching holds the state a power switch goes to: the first read
	// after the switch still sees the machine pending, so only a caller that
	// waits sees it settled.
	switching map[string]adapter.State
}

func newToy() *toy {
	return &toy{machines: map[string]adapter.Machine{}, switching: map[string]adapter.State{}}
}

var toyCapabilities = adapter.Capabilities{adapter.CapList, adapter.CapUpdate, adapter.CapPower}

func toyDefinition(t *toy) adapter.Definition {
	return adapter.Definition{
		Kind:             "toy",
		Description:      "Toy machines.",
		Block:            "toy_cloud",
		BlockDescription: "Toy machines, kept in memory for tests.",
		Capabilities:     toyCapabilities,
		Settings: []adapter.Setting{
			{Name: "api_key", Description: "secret reference to the toy key", Required: true, Role: adapter.RoleSecret},
			{Name: "region", Description: "where machines go by default", Default: "north", Role: adapter.RoleLocation},
			{Name: "url", Description: "the toy API", Default: "https://toy.example/api", Role: adapter.RoleEndpoint, Scope: true},
		},
		Notes: map[string]string{adapter.FieldOfferID: "a toy size, e.g. `tiny`"},
		New: func(settings map[string]string, env adapter.Env) (adapter.Adapter, error) {
			return &toyAccount{toy: t, key: settings["api_key"], region: settings["region"], secrets: env.Secrets}, nil
		},
	}
}

// toyAccount is one account on the toy backend. It resolves its key on
// every request, as real adapters do.
type toyAccount struct {
	*toy
	key, region string
	secrets     adapter.Secrets
}

func (a *toyAccount) Kind() string { return "toy" }

func (a *toyAccount) auth(ctx context.Context) error {
	if v, err := a.secrets.Resolve(ctx, a.key); err != nil || v != acctest.Token {
		return adapter.Errorf(adapter.AccessDenied, "the toy key is refused")
	}
	return nil
}

func (a *toyAccount) ListOffers(ctx context.Context, q adapter.Query) ([]adapter.Offer, error) {
	if err := a.auth(ctx); err != nil {
		return nil, err
	}
	loc := q.Location
	if loc == "" {
		loc = a.region
	}
	return []adapter.Offer{{ID: "tiny", Kind: adapter.KindVPS, Location: loc, VCPU: 1, Available: true}}, nil
}

func (a *toyAccount) Create(ctx context.Context, call adapter.Call, req adapter.CreateRequest) (adapter.Machine, error) {
	if err := a.auth(ctx); err != nil {
		return adapter.Machine{}, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, m := range a.machines {
		if m.Key == call.IdempotencyKey {
			if err := adapter.Adoptable("create", m, call, adapter.Fingerprint(req), time.Now()); err != nil {
				return adapter.Machine{}, err
			}
			m.PriorClaim, m.Claim, m.Unconfirmed = m.Claim, call.Claim, true
			a.machines[m.ID] = m
			m.Adopted = true
			return m, nil
		}
	}
	a.next++
	m := adapter.Machine{ID: strconv.Itoa(a.next), Name: req.Name, State: adapter.StateRunning, RawState: "awake",
		OfferID: req.OfferID, Image: req.Image, Location: req.Location, IPv4: "192.0.2.7", Labels: req.Labels,
		CreatedAt: time.Unix(0, 0), Managed: true, Key: call.IdempotencyKey, Fingerprint: adapter.Fingerprint(req), Claim: call.Claim, Unconfirmed: true}
	if m.Location == "" {
		m.Location = a.region
	}
	a.machines[m.ID] = m
	return m, nil
}

func (a *toyAccount) Get(ctx context.Context, id string) (adapter.Machine, error) {
	if err := a.auth(ctx); err != nil {
		return adapter.Machine{}, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, ok := a.machines[id]; !ok {
		return adapter.Machine{}, adapter.Errorf(adapter.NotFound, "no toy machine %s", id)
	}
	return a.observe(id), nil
}

// observe is what a read sees, Get and List alike: a machine whose power is
// switching shows pending once, then the state it switched to, so a wait
// that does not read again never sees it settle. Called with a.mu held.
func (a *toyAccount) observe(id string) adapter.Machine {
	m := a.machines[id]
	if to, ok := a.switching[id]; ok {
		delete(a.switching, id)
		m.State = to
		m.RawState = map[adapter.State]string{adapter.StateRunning: "awake", adapter.StateStopped: "asleep"}[to]
		a.machines[id] = m
		m.State, m.RawState = adapter.StatePending, "turning"
	}
	return m
}

func (a *toyAccount) Power(ctx context.Context, id string, action adapter.PowerAction) error {
	if err := a.auth(ctx); err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, ok := a.machines[id]; !ok {
		return adapter.Errorf(adapter.NotFound, "no toy machine %s", id)
	}
	a.switching[id] = map[adapter.PowerAction]adapter.State{adapter.PowerOn: adapter.StateRunning, adapter.PowerOff: adapter.StateStopped}[action]
	return nil
}

func (a *toyAccount) List(ctx context.Context) ([]adapter.Machine, error) {
	if err := a.auth(ctx); err != nil {
		return nil, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []adapter.Machine
	for id, m := range a.machines {
		if m.Managed {
			out = append(out, a.observe(id))
		}
	}
	return out, nil
}

// The toy keeps every optional interface it declares: a signature that drifts
// from the contract's must fail to compile, not quietly lose a capability.
var (
	_ adapter.Updater = (*toyAccount)(nil)
	_ adapter.Powerer = (*toyAccount)(nil)
	_ adapter.Lister  = (*toyAccount)(nil)
)

func (a *toyAccount) Update(ctx context.Context, id string, req adapter.UpdateRequest) (adapter.Machine, error) {
	if err := a.auth(ctx); err != nil {
		return adapter.Machine{}, err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	m, ok := a.machines[id]
	if !ok {
		return adapter.Machine{}, adapter.Errorf(adapter.NotFound, "no toy machine %s", id)
	}
	if req.Name != nil {
		m.Name = *req.Name
	}
	if req.Labels != nil {
		m.Labels = req.Labels
	}
	if req.Mark != nil {
		m.Managed, m.Key, m.Fingerprint, m.Claim, m.Unconfirmed = true, req.Mark.Key, req.Mark.Fingerprint, req.Mark.Claim, req.Mark.Unconfirmed
	}
	a.machines[id] = m
	return m, nil
}

func (a *toyAccount) Delete(ctx context.Context, id string) error {
	if err := a.auth(ctx); err != nil {
		return err
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, ok := a.machines[id]; !ok {
		return adapter.Errorf(adapter.NotFound, "no toy machine %s", id)
	}
	delete(a.machines, id)
	return nil
}

// toyRegistry is the provider's own registry with one more line: the toy.
func toyRegistry(t *toy) *adapter.Registry {
	return adapter.NewRegistry(append(provider.DefaultRegistry().Definitions(), toyDefinition(t))...)
}

func toyServer(t *toy) func() (tfprotov6.ProviderServer, error) {
	return providerserver.NewProtocol6WithError(provider.New("test", provider.WithRegistry(toyRegistry(t)), provider.WithClock(acctest.FastClock{}))())
}

// TestGenericSchema: a definition added to the registry brings its account
// block, with its description and one attribute per setting, and documents
// its values on the objects that show them, without code in any resource
// package.
func TestGenericSchema(t *testing.T) {
	t.Parallel()
	srv, err := toyServer(newToy())()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("schema: %v %v", err, resp.Diagnostics)
	}
	account := attribute(t, resp.ResourceSchemas["compute_provider_account"].Block.Attributes, "toy_cloud")
	if !strings.Contains(account.Description, "Toy machines, kept in memory for tests (adapter `toy`)") || !account.Optional {
		t.Errorf("toy_cloud block: %q optional=%v", account.Description, account.Optional)
	}
	settings := map[string]*tfprotov6.SchemaAttribute{}
	for _, a := range account.NestedType.Attributes {
		settings[a.Name] = a
	}
	if len(settings) != 3 || !settings["api_key"].Required || !strings.Contains(settings["api_key"].Description, "`env://NAME`") ||
		!strings.Contains(settings["region"].Description, "Defaults to `north`") || !settings["url"].Optional {
		t.Errorf("toy_cloud settings: %v", settings)
	}
	offers := attribute(t, resp.DataSourceSchemas["compute_offers"].Block.Attributes, "offers")
	id := attribute(t, offers.NestedType.Attributes, "id")
	if !strings.Contains(id.Description, "On `toy_cloud` accounts: a toy size, e.g. `tiny`.") {
		t.Errorf("offers id does not document the toy's ids: %q", id.Description)
	}
	location := attribute(t, resp.DataSourceSchemas["compute_offers"].Block.Attributes, "location")
	if !strings.Contains(location.Description, "`toy_cloud.region`") {
		t.Errorf("offers location does not name the toy's default location: %q", location.Description)
	}
	machines := attribute(t, resp.DataSourceSchemas["compute_machines"].Block.Attributes, "machines")
	if offer := attribute(t, machines.NestedType.Attributes, "offer_id"); !strings.Contains(offer.Description, "On `toy_cloud` accounts: a toy size") {
		t.Errorf("machines offer_id does not document the toy's ids: %q", offer.Description)
	}
}

// TestSchemasNameNoBackend: with the toy alone in the registry, no
// description of any resource or data source speaks of a shipped backend:
// what a value is on one comes from its definition.
func TestSchemasNameNoBackend(t *testing.T) {
	t.Parallel()
	p := provider.New("test", provider.WithRegistry(adapter.NewRegistry(toyDefinition(newToy()))))
	srv, err := providerserver.NewProtocol6WithError(p())()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("schema: %v %v", err, resp.Diagnostics)
	}
	schemas := map[string]*tfprotov6.Schema{}
	for name, s := range resp.ResourceSchemas {
		schemas[name] = s
	}
	for name, s := range resp.DataSourceSchemas {
		schemas[name] = s
	}
	if len(schemas) < 4 {
		t.Fatalf("%d schemas, want every resource and data source", len(schemas))
	}
	for name, s := range schemas {
		for _, d := range descriptions(s.Block.Attributes) {
			for _, word := range []string{"Hetzner", "hetzner", "hcloud", "cx22", "fsn1", "ubuntu-24.04"} {
				if strings.Contains(d, word) {
					t.Errorf("%s speaks of %s with no such backend registered: %q", name, word, d)
				}
			}
		}
	}
}

// descriptions are the descriptions of attrs and of every attribute nested
// in them.
func descriptions(attrs []*tfprotov6.SchemaAttribute) []string {
	var out []string
	for _, a := range attrs {
		out = append(out, a.Description)
		if a.NestedType != nil {
			out = append(out, descriptions(a.NestedType.Attributes)...)
		}
	}
	return out
}

func attribute(t *testing.T, attrs []*tfprotov6.SchemaAttribute, name string) *tfprotov6.SchemaAttribute {
	t.Helper()
	for _, a := range attrs {
		if a.Name == name {
			return a
		}
	}
	t.Fatalf("no attribute %s", name)
	return nil
}

// TestGenericLifecycle: an instance on the toy backend is planned with the
// account's default location (found by role), created, renamed in place,
// switched off, imported and destroyed, through the same resources as every
// adapter.
func TestGenericLifecycle(t *testing.T) {
	t.Parallel()
	backend := newToy()
	cfg := func(name, power string) string {
		return fmt.Sprintf(`
resource "compute_provider_account" "toy" {
  name      = "toy"
  toy_cloud = { api_key = "env://%s" }
}
data "compute_offers" "all" {
  accounts = [compute_provider_account.toy.id]
}
resource "compute_instance" "web" {
  account  = compute_provider_account.toy.id
  name     = %q
  offer_id = "tiny"
  image    = "plain"
  power    = %q
  # A wait that never ends fails the step in minutes, not the default ten.
  timeouts {
    create = "2m"
    update = "2m"
    delete = "2m"
  }
}
`, acctest.TokenEnv, name, power)
	}
	const web = "compute_instance.web"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: map[string]func() (tfprotov6.ProviderServer, error){"compute": toyServer(backend)},
		CheckDestroy: func(*terraform.State) error {
			backend.mu.Lock()
			defer backend.mu.Unlock()
			if len(backend.machines) > 0 {
				return fmt.Errorf("toy machines remain after destroy: %v", backend.machines)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: cfg("web-1", "on"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(web, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(web, tfjsonpath.New("location"), knownvalue.StringExact("north")),
					plancheck.ExpectKnownValue("compute_provider_account.toy", tfjsonpath.New("adapter"), knownvalue.StringExact("toy")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(web, tfjsonpath.New("state"), knownvalue.StringExact("running")),
					statecheck.ExpectKnownValue(web, tfjsonpath.New("ipv4_address"), knownvalue.StringExact("192.0.2.7")),
					statecheck.ExpectKnownValue("compute_provider_account.toy", tfjsonpath.New("health").AtMapKey("reachable"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue("data.compute_offers.all", tfjsonpath.New("offers").AtSliceIndex(0).AtMapKey("location"), knownvalue.StringExact("north")),
				},
			},
			{
				Config: cfg("web-2", "on"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(web, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(web, tfjsonpath.New("name"), knownvalue.StringExact("web-2")),
				},
			},
			{
				// The update switches power and waits: the read right after
				// the switch still finds the machine pending.
				Config: cfg("web-2", "off"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(web, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(web, tfjsonpath.New("state"), knownvalue.StringExact("stopped")),
					statecheck.ExpectKnownValue(web, tfjsonpath.New("raw_state"), knownvalue.StringExact("asleep")),
				},
			},
			{
				ResourceName:            web,
				ImportState:             true,
				ImportStateIdFunc:       acctest.ImportID(web),
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"user_data", "user_data_sha256", "timeouts"},
			},
		},
	})
}
