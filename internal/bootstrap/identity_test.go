package bootstrap_test

import (
	"fmt"
	"strconv"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// robotAccount is the id compute_provider_account computes for m's account
// named robot.
func robotAccount(t *testing.T, m *acctest.Metal) string {
	t.Helper()
	loc, err := provider.DefaultRegistry().Locate("robot", map[string]string{
		"user": m.SecretRef("user"), "password": m.SecretRef("password"), "endpoint": m.Endpoint,
		"ssh_key": m.KeyFingerprint, "ssh_private_key": m.SecretRef("id_ed25519"), "ssh_port": fmt.Sprint(m.Farm.SSHPort()),
	})
	if err != nil {
		t.Fatal(err)
	}
	loc.Name = "robot"
	return loc.String()
}

// TestRobotHostIdentityProto imports a rented server by identity through
// the protocol, as Terraform 1.12 and later do, so that it is covered under
// any terraform on PATH: the import and the read after it keep the account
// and the server number as the identity.
func TestRobotHostIdentityProto(t *testing.T) {
	t.Parallel()
	m := acctest.NewMetal(t)
	n, _ := m.AddServer(t, "")
	account, number := robotAccount(t, m), strconv.Itoa(n)
	p := acctest.NewProto(t, provider.DefaultRegistry())
	imp := p.Import("compute_bootstrap_host", "", p.Identity("compute_bootstrap_host", map[string]tftypes.Value{
		"account": acctest.String(account), "id": acctest.String(number),
	}))
	if acctest.HasError(imp.Diagnostics) || len(imp.ImportedResources) != 1 {
		t.Fatalf("import by identity: %v", acctest.Diagnostics(imp.Diagnostics, tfprotov6.DiagnosticSeverityError))
	}
	if got := p.State("compute_bootstrap_host", imp.ImportedResources[0].State); got["id"] != number || got["machine_id"] != number {
		t.Errorf("state after import by identity: %v, want id and machine_id %s", got, number)
	}
	read := p.Read(imp.ImportedResources[0])
	if acctest.HasError(read.Diagnostics) {
		t.Fatalf("read after import: %v", acctest.Diagnostics(read.Diagnostics, tfprotov6.DiagnosticSeverityError))
	}
	if got := p.State("compute_bootstrap_host", read.NewState); got["phase"] != string(adapter.PhaseReady) {
		t.Errorf("state read after import by identity: %v, want phase ready", got)
	}
	if got := p.IdentityOf("compute_bootstrap_host", read.NewIdentity); got["account"] != account || got["id"] != number {
		t.Errorf("identity read after import: %v, want the account and id %s", got, number)
	}
}

// TestRobotHostImportByIdentity imports a rented server with an import
// block that names it by identity (Terraform 1.12 and later): the first
// apply only writes the mark, installs nothing, and the next plan is empty.
func TestRobotHostImportByIdentity(t *testing.T) {
	t.Parallel()
	acctest.Require(t, acctest.ImportByIdentity)
	m := acctest.NewMetal(t)
	n, mach := m.AddServer(t, "")
	cfg := robotHostAs(m, n, "", "", "") + fmt.Sprintf(`
import {
  to = compute_bootstrap_host.db
  identity = {
    account = compute_provider_account.robot.id
    id      = "%d"
  }
}
`, n)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             m.CheckReleased(n, ""),
		Steps: []resource.TestStep{
			{
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectIdentity(addr, map[string]knownvalue.Check{
						"account": knownvalue.StringExact(robotAccount(t, m)),
						"id":      knownvalue.StringExact(strconv.Itoa(n)),
					}),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("phase"), knownvalue.StringExact(string(adapter.PhaseReady))),
				},
				Check: installsOn(mach, 0),
			},
			{Config: cfg, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
		},
	})
}

// TestRobotHostListProto runs compute_bootstrap_host's list resource
// through the protocol, as terraform query does, so that it is covered
// under any terraform on PATH: each rented server is a host taken as it
// is, phase ready, with no image (Robot does not report one), and its
// identity.
func TestRobotHostListProto(t *testing.T) {
	t.Parallel()
	m := acctest.NewMetal(t)
	n, _ := m.AddServer(t, "")
	account, number := robotAccount(t, m), strconv.Itoa(n)
	p := acctest.NewProto(t, provider.DefaultRegistry())
	got := p.List("compute_bootstrap_host", map[string]tftypes.Value{
		"accounts": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{acctest.String(account)}),
	}, true)
	if len(got) != 1 || acctest.HasError(got[0].Diagnostics) {
		t.Fatalf("list: %+v, want the one server", got)
	}
	r := got[0]
	if r.Identity["account"] != account || r.Identity["id"] != number {
		t.Errorf("identity %v, want the account and id %s", r.Identity, number)
	}
	for attr, want := range map[string]string{"id": number, "machine_id": number, "account": account, "phase": string(adapter.PhaseReady), "image": ""} {
		if r.Resource[attr] != want {
			t.Errorf("resource %s = %q, want %q (resource %v)", attr, r.Resource[attr], want, r.Resource)
		}
	}
}
