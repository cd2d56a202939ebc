package instance_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// webList is the list block over the web- machines of account, not yet
// managed, with each whole resource.
func webList(account string) string {
	return `
list "compute_instance" "web" {
  provider         = compute
  include_resource = true
  config {
    accounts    = [` + account + `]
    name_prefix = "web-"
    managed     = false
  }
}
`
}

// TestInstanceQueryAdoptsFleet adopts three servers the provider did not
// create with `terraform query -generate-config-out` (Terraform 1.14 and
// later): the list finds the three and not the others, the generated
// configuration plans an import and the mark for each, the apply creates
// nothing and marks them, and the next plan is empty.
func TestInstanceQueryAdoptsFleet(t *testing.T) {
	t.Parallel()
	acctest.Require(t, acctest.Query)
	e := acctest.NewEmulator(t)
	var ids []int64
	for _, n := range []string{"web-1", "web-2", "web-3"} {
		ids = append(ids, e.AddServer(emu.Server{Name: n, Labels: map[string]string{"role": "web"}}))
	}
	other := e.AddServer(emu.Server{Name: "db-1"})
	c := acctest.NewCLI(t, e.Account())
	c.MustRun("apply", "-auto-approve", "-input=false")
	out, gen := c.AdoptByQuery(webList("compute_provider_account.test.id"), nil, 3)
	for _, id := range ids {
		if !strings.Contains(out, fmt.Sprintf("id=%d", id)) || !strings.Contains(gen, fmt.Sprintf("id = \"%d\"", id)) {
			t.Errorf("server %d is not in the query's output or the generated configuration:\n%s\n%s", id, out, gen)
		}
	}
	if strings.Contains(out, "db-1") || strings.Contains(gen, "db-1") {
		t.Errorf("the query found db-1, which its filters leave out:\n%s", out)
	}
	for _, id := range ids {
		if s, _ := e.Server(id); s.Labels[markPrefix+"managed"] != "true" || s.Labels["role"] != "web" {
			t.Errorf("server %d after the apply: labels %v, want the mark beside role=web", id, s.Labels)
		}
	}
	if s, _ := e.Server(other); s.Labels[markPrefix+"managed"] != "" {
		t.Errorf("db-1 was marked: %v", s.Labels)
	}
	if n := e.Stats()["POST /servers"]; n != 0 {
		t.Errorf("%d creates, want none", n)
	}
}

// TestInstanceListProto runs the list resource through the protocol, as
// terraform query does, so that it is covered under any terraform on PATH:
// each result has the machine's name and id, its identity and, when asked
// for, the resource an import would hold; the filters apply; a list block
// naming an account not applied yet, or one that is not an account, is
// refused on its index.
func TestInstanceListProto(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	reg := provider.DefaultRegistry()
	account := e.AccountID(t)
	id := fmt.Sprint(e.AddServer(emu.Server{Name: "web-1", Labels: map[string]string{"role": "web"}}))
	e.AddServer(emu.Server{Name: "db-1"})
	p := acctest.NewProto(t, reg)
	config := map[string]tftypes.Value{
		"accounts":    tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{acctest.String(account)}),
		"name_prefix": acctest.String("web-"),
	}
	got := p.List("compute_instance", config, true)
	if len(got) != 1 {
		t.Fatalf("list: %+v, want web-1 alone", got)
	}
	r := got[0]
	if acctest.HasError(r.Diagnostics) || r.DisplayName != "web-1 ("+id+")" {
		t.Errorf("result %q: %v, want web-1 (%s)", r.DisplayName, r.Diagnostics, id)
	}
	if r.Identity["account"] != account || r.Identity["id"] != id {
		t.Errorf("identity %v, want the account and id %s", r.Identity, id)
	}
	for attr, want := range map[string]string{"id": id, "account": account, "name": "web-1", "offer_id": "cx22", "image": "ubuntu-24.04",
		"location": "fsn1", "power": "on", "shutdown_timeout": "1m", "state": "running"} {
		if r.Resource[attr] != want {
			t.Errorf("resource %s = %q, want %q (resource %v)", attr, r.Resource[attr], want, r.Resource)
		}
	}
	if without := p.List("compute_instance", config, false); len(without) != 1 || without[0].Resource != nil || without[0].Identity["id"] != id {
		t.Errorf("list without the resource: %+v, want the identity alone", without)
	}
	config["accounts"] = tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{tftypes.NewValue(tftypes.String, tftypes.UnknownValue)})
	unapplied := p.List("compute_instance", config, false)
	if len(unapplied) != 1 || !regexp.MustCompile(`Unable to use compute_instance list argument: accounts\[0\] is not known yet.*apply`).MatchString(
		strings.Join(acctest.Diagnostics(unapplied[0].Diagnostics, tfprotov6.DiagnosticSeverityError), "\n")) {
		t.Errorf("list of an account not applied yet: %+v, want one error on accounts[0] saying to apply it first", unapplied)
	}
	config["accounts"] = tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{acctest.String("not-an-account")})
	refused := p.List("compute_instance", config, false)
	if len(refused) != 1 || !regexp.MustCompile(`accounts\[0\].*is not a compute_provider_account id`).MatchString(
		strings.Join(acctest.Diagnostics(refused[0].Diagnostics, tfprotov6.DiagnosticSeverityError), "\n")) {
		t.Errorf("list of a malformed account: %+v, want one error on accounts[0]", refused)
	}
}
