package provider_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

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
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/toycloud"
	toyemu "github.com/seedcompute/terraform-provider-compute/internal/emulator/toycloud"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// The newcomer's backend, Toy Cloud (internal/adapter/toycloud and its
// emulator), whose settings are named unlike any shipped adapter's, so the
// Terraform layer can reach them only through their roles. It is added to
// the registry here as its registry line adds it to a binary built with
// the testbackends tag, unless the build has the tag and so has it
// already.
func toyRegistry() *adapter.Registry {
	defs := provider.DefaultRegistry().Definitions()
	if !slices.ContainsFunc(defs, func(d adapter.Definition) bool { return d.Kind == toycloud.Definition().Kind }) {
		defs = append(defs, toycloud.Definition())
	}
	return adapter.NewRegistry(defs...)
}

func toyServer() func() (tfprotov6.ProviderServer, error) {
	return providerserver.NewProtocol6WithError(provider.New("test", provider.WithRegistry(toyRegistry()), provider.WithClock(acctest.FastClock{}))())
}

// newToyCloud is a Toy Cloud emulator on loopback that takes acctest.Token.
func newToyCloud(t *testing.T) (*toyemu.Emulator, string) {
	e := toyemu.New(toyemu.Options{Token: acctest.Token})
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	return e, srv.URL + toyemu.BasePath
}

// TestGenericSchema: a definition added to the registry brings its account
// block, with its description and one attribute per setting, and documents
// its values on the objects that show them, without code in any resource
// package.
func TestGenericSchema(t *testing.T) {
	t.Parallel()
	srv, err := toyServer()()
	if err != nil {
		t.Fatal(err)
	}
	resp, err := srv.GetProviderSchema(context.Background(), &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || len(resp.Diagnostics) > 0 {
		t.Fatalf("schema: %v %v", err, resp.Diagnostics)
	}
	account := attribute(t, resp.ResourceSchemas["compute_provider_account"].Block.Attributes, "toy_cloud")
	if !strings.Contains(account.Description, "kept in the tests as the worked example of a new backend (adapter `toycloud`)") || !account.Optional {
		t.Errorf("toy_cloud block: %q optional=%v", account.Description, account.Optional)
	}
	settings := map[string]*tfprotov6.SchemaAttribute{}
	for _, a := range account.NestedType.Attributes {
		settings[a.Name] = a
	}
	if len(settings) != 3 || !settings["api_key"].Required || !strings.Contains(settings["api_key"].Description, "`env://NAME`") ||
		!strings.Contains(settings["region"].Description, "Defaults to `north`") || !settings["endpoint"].Optional {
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
	p := provider.New("test", provider.WithRegistry(adapter.NewRegistry(toycloud.Definition())))
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

// TestGenericLifecycle: an instance on Toy Cloud is planned with the
// account's default location (found by role), created, renamed in place,
// switched off, imported and destroyed, through the same resources as every
// adapter.
func TestGenericLifecycle(t *testing.T) {
	t.Parallel()
	backend, endpoint := newToyCloud(t)
	cfg := func(name, power string) string {
		return fmt.Sprintf(`
resource "compute_provider_account" "toy" {
  name      = "toy"
  toy_cloud = { api_key = "env://%s", endpoint = %q }
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
`, acctest.TokenEnv, endpoint, name, power)
	}
	const web = "compute_instance.web"
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: map[string]func() (tfprotov6.ProviderServer, error){"compute": toyServer()},
		CheckDestroy: func(*terraform.State) error {
			if left := backend.Servers(); len(left) > 0 {
				return fmt.Errorf("Toy Cloud servers remain after destroy: %+v", left)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{
				Config: cfg("web-1", "on"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(web, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(web, tfjsonpath.New("location"), knownvalue.StringExact("north")),
					plancheck.ExpectKnownValue("compute_provider_account.toy", tfjsonpath.New("adapter"), knownvalue.StringExact("toycloud")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(web, tfjsonpath.New("state"), knownvalue.StringExact("running")),
					statecheck.ExpectKnownValue(web, tfjsonpath.New("ipv4_address"), knownvalue.StringRegexp(regexp.MustCompile(`^198\.51\.100\.`))),
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
					statecheck.ExpectKnownValue(web, tfjsonpath.New("raw_state"), knownvalue.StringExact("off")),
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
