package instance_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// TestInstanceIdentityProto drives the identity through the protocol, as
// Terraform 1.12 and later do, so that it is covered under any terraform
// on PATH: a create leaves the account and the machine's id as the
// identity, an import by identity finds a machine the provider did not
// create and keeps the identity through the read after it, a state without
// identity gets it on its refresh, an import by id gives the same
// identity, a refresh that finds the machine gone removes it without an
// error, and a malformed identity is refused as such.
func TestInstanceIdentityProto(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	account := e.AccountID(t)
	p := acctest.NewProto(t, provider.DefaultRegistry())

	created := p.Create("compute_instance", map[string]tftypes.Value{
		"account": acctest.String(account), "name": acctest.String("web-1"),
		"offer_id": acctest.String("cx22"), "image": acctest.String("ubuntu-24.04"),
	})
	id := p.State("compute_instance", created.NewState)["id"]
	if got := p.IdentityOf("compute_instance", created.NewIdentity); got["account"] != account || got["id"] != id || id == "" {
		t.Errorf("identity after create: %v, want account %s and id %q", got, account, id)
	}

	legacy := strconv.FormatInt(e.AddServer(emu.Server{Name: "legacy"}), 10)
	byIdentity := p.Import("compute_instance", "", p.Identity("compute_instance", map[string]tftypes.Value{
		"account": acctest.String(account), "id": acctest.String(legacy),
	}))
	if acctest.HasError(byIdentity.Diagnostics) || len(byIdentity.ImportedResources) != 1 {
		t.Fatalf("import by identity: %v", acctest.Diagnostics(byIdentity.Diagnostics, tfprotov6.DiagnosticSeverityError))
	}
	imported := byIdentity.ImportedResources[0]
	if got := p.State("compute_instance", imported.State); got["id"] != legacy || got["account"] != account {
		t.Errorf("state after import by identity: %v, want id %s on the account", got, legacy)
	}
	read := p.Read(imported)
	if acctest.HasError(read.Diagnostics) {
		t.Fatalf("read after import by identity: %v", acctest.Diagnostics(read.Diagnostics, tfprotov6.DiagnosticSeverityError))
	}
	if got := p.State("compute_instance", read.NewState); got["name"] != "legacy" || got["managed"] != "" {
		t.Errorf("state read after import by identity: %v, want the machine legacy", got)
	}
	if got := p.IdentityOf("compute_instance", read.NewIdentity); got["account"] != account || got["id"] != legacy {
		t.Errorf("identity read after import by identity: %v, want account and id %s", got, legacy)
	}

	// A state written without identity (by Terraform 1.11, or before the
	// provider had one) gets it on its next refresh.
	bare := *imported
	bare.Identity = nil
	if got := p.IdentityOf("compute_instance", p.Read(&bare).NewIdentity); got["account"] != account || got["id"] != legacy {
		t.Errorf("identity read from a state without one: %v, want account and id %s", got, legacy)
	}

	byID := p.Import("compute_instance", account+"/"+legacy, nil)
	if acctest.HasError(byID.Diagnostics) || len(byID.ImportedResources) != 1 {
		t.Fatalf("import by id: %v", acctest.Diagnostics(byID.Diagnostics, tfprotov6.DiagnosticSeverityError))
	}
	if got := p.IdentityOf("compute_instance", byID.ImportedResources[0].Identity); got["account"] != account || got["id"] != legacy {
		t.Errorf("identity after import by id: %v, want account and id %s", got, legacy)
	}

	// A refresh that finds the machine gone removes it without an error,
	// also from a state without identity (the import's own read would
	// fail instead: TestInstanceImportOfNoMachine).
	e.RemoveServer(mustInt(t, legacy))
	gone := p.Read(&tfprotov6.ImportedResource{TypeName: "compute_instance", State: read.NewState, Private: read.Private})
	if acctest.HasError(gone.Diagnostics) {
		t.Errorf("read of a machine gone, from a state without identity: %v", acctest.Diagnostics(gone.Diagnostics, tfprotov6.DiagnosticSeverityError))
	}

	bad := p.Import("compute_instance", "", p.Identity("compute_instance", map[string]tftypes.Value{
		"account": acctest.String(account), "id": acctest.String("web-1"),
	}))
	errs := acctest.Diagnostics(bad.Diagnostics, tfprotov6.DiagnosticSeverityError)
	if len(errs) != 1 || !strings.Contains(errs[0], `identity.id "web-1" is not a machine id`) {
		t.Errorf("import by an identity whose id is no server id: %v, want one error naming the identity", errs)
	}
}

// TestInstanceImportByIdentity imports a server the provider did not create
// with an import block that names it by identity (Terraform 1.12 and
// later): the plan imports it and writes the mark in place, the identity is
// the account and the server's id, and the next plan is empty.
func TestInstanceImportByIdentity(t *testing.T) {
	t.Parallel()
	acctest.Require(t, acctest.ImportByIdentity)
	e := acctest.NewEmulator(t)
	id := e.AddServer(emu.Server{Name: "legacy", Labels: map[string]string{"owner": "ops"}})
	cfg := e.Account() + fmt.Sprintf(`
import {
  to = compute_instance.web
  identity = {
    account = compute_provider_account.test.id
    id      = "%d"
  }
}

resource "compute_instance" "web" {
  account  = compute_provider_account.test.id
  name     = "legacy"
  offer_id = "cx22"
  image    = "ubuntu-24.04"
  labels   = { owner = "ops" }
}
`, id)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             e.CheckDestroy,
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(strconv.FormatInt(id, 10))),
					statecheck.ExpectIdentity(addr, map[string]knownvalue.Check{
						"account": knownvalue.StringRegexp(acctest.Match(`"kind":"hcloud"`)),
						"id":      knownvalue.StringExact(strconv.FormatInt(id, 10)),
					}),
					statecheck.ExpectIdentityValueMatchesState(addr, tfjsonpath.New("account")),
				},
				Check: func(*terraform.State) error {
					if s, _ := e.Server(id); s.Labels[markPrefix+"managed"] != "true" || s.Labels["owner"] != "ops" {
						return fmt.Errorf("server %d after the import: labels %v, want the mark and owner=ops", id, s.Labels)
					}
					return nil
				},
			},
			{
				Config:           cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			},
		},
	})
}

func mustInt(t *testing.T, s string) int64 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// TestInstanceIdentityRepointProto re-points an instance at another
// spelling of its account through the protocol, with the prior identity
// sent as Terraform 1.12 and later send it, so that the path is covered
// under any terraform on PATH: the plan gives the identity the new
// account, and the apply leaves it there, which the framework accepts only
// from a resource whose identity may change.
func TestInstanceIdentityRepointProto(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	reg := provider.DefaultRegistry()
	accountAt := func(endpoint string) string {
		loc, err := reg.Locate("hcloud", map[string]string{"token": "env://" + acctest.HetznerCloudTokenEnv, "endpoint": endpoint})
		if err != nil {
			t.Fatal(err)
		}
		return loc.String()
	}
	before, after := accountAt(e.Endpoint), accountAt(strings.Replace(e.Endpoint, "127.0.0.1", "localhost", 1))
	p := acctest.NewProto(t, reg)
	config := func(account string) map[string]tftypes.Value {
		return map[string]tftypes.Value{
			"account": acctest.String(account), "name": acctest.String("web-1"),
			"offer_id": acctest.String("cx22"), "image": acctest.String("ubuntu-24.04"),
		}
	}
	created := p.Create("compute_instance", config(before))
	id := p.State("compute_instance", created.NewState)["id"]

	u := p.Update("compute_instance", created, config(after))
	if errs := acctest.Diagnostics(u.Plan.Diagnostics, tfprotov6.DiagnosticSeverityError); len(errs) > 0 {
		t.Fatalf("the plan of the re-point: %v", errs)
	}
	if got := p.IdentityOf("compute_instance", u.Plan.PlannedIdentity); got["account"] != after || got["id"] != id {
		t.Errorf("planned identity of the re-point: %v, want account %s and id %s", got, after, id)
	}
	if errs := acctest.Diagnostics(u.Apply.Diagnostics, tfprotov6.DiagnosticSeverityError); len(errs) > 0 {
		t.Fatalf("the apply of the re-point: %v", errs)
	}
	if got := p.IdentityOf("compute_instance", u.Apply.NewIdentity); got["account"] != after || got["id"] != id {
		t.Errorf("identity after the re-point: %v, want account %s and id %s", got, after, id)
	}
}
