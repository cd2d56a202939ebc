package examples_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	robotemu "github.com/seedcompute/terraform-provider-compute/internal/emulator/robot"
)

// The examples of Terraform 1.12's identity and 1.14's list resources.
const (
	instanceIdentityTF = "resources/compute_instance/import-identity.tf"
	instanceListHCL    = "list-resources/compute_instance/list-resource.tfquery.hcl"
	hostListHCL        = "list-resources/compute_bootstrap_host/list-resource.tfquery.hcl"
)

func init() {
	for _, f := range []string{instanceIdentityTF, instanceListHCL, hostListHCL} {
		exercisedExamples[f] = true
	}
}

// TestInstanceImportByIdentityExample adopts a server made outside
// Terraform with the import block of import-identity.tf, its example id
// swapped for the server's, into the instance example's resource block: the
// plan imports it, and the plan after the apply is empty.
func TestInstanceImportByIdentityExample(t *testing.T) {
	t.Parallel()
	acctest.Require(t, acctest.ImportByIdentity)
	e := startEmulator(t)
	id, err := e.createServer(t.Context(), "legacy", nil)
	if err != nil {
		t.Fatal(err)
	}
	block := replaceOnce(t, readExample(t, instanceIdentityTF), `id      = "4711"`, fmt.Sprintf(`id      = "%d"`, id))
	cfg := pointAtEmulator(t, readExample(t, accountTF), e) + block + `
resource "compute_instance" "legacy" {
  account  = compute_provider_account.cloud.id
  name     = "legacy"
  offer_id = "cx22"
  image    = "ubuntu-24.04"
}
`
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providers(),
		CheckDestroy:             e.checkNoServers,
		Steps: []resource.TestStep{
			{Config: cfg, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{expectImport{"compute_instance.legacy"}}}},
			{Config: cfg, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
		},
	})
}

// TestInstanceListExample runs the compute_instance list example against
// three web- servers and one other made outside Terraform: it finds the
// three, each with its identity.
func TestInstanceListExample(t *testing.T) {
	t.Parallel()
	acctest.Require(t, acctest.Query)
	e := startEmulator(t)
	for _, n := range []string{"web-1", "web-2", "web-3", "db-1"} {
		if _, err := e.createServer(t.Context(), n, nil); err != nil {
			t.Fatal(err)
		}
	}
	account := pointAtEmulator(t, readExample(t, accountTF), e)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: providers(),
		Steps: []resource.TestStep{
			{Config: account},
			{
				Query:  true,
				Config: readExample(t, instanceListHCL),
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("compute_instance.web", 3),
					querycheck.ExpectIdentity("compute_instance.web", map[string]knownvalue.Check{
						"account": knownvalue.StringRegexp(acctest.Match(`"kind":"hcloud"`)),
						"id":      knownvalue.NotNull(),
					}),
				},
			},
		},
	})
}

// TestHostListExample runs the compute_bootstrap_host list example against
// a Robot account with three db- servers and one free one: it finds the
// three.
func TestHostListExample(t *testing.T) {
	t.Parallel()
	acctest.Require(t, acctest.Query)
	m := acctest.NewMetal(t)
	for i := range 3 {
		if _, err := m.Robot.AddServer(robotemu.ServerSeed{Name: fmt.Sprintf("db-%d", i+1)}); err != nil {
			t.Fatal(err)
		}
	}
	m.AddServer(t, "")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: withSource(m.AccountNamed("metal"))},
			{
				Query:             true,
				Config:            strings.TrimSpace(readExample(t, hostListHCL)),
				QueryResultChecks: []querycheck.QueryResultCheck{querycheck.ExpectLength("compute_bootstrap_host.db", 3)},
			},
		},
	})
}
