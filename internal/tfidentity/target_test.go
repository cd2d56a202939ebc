package tfidentity_test

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// TestImportTarget runs the same imports through compute_instance and
// compute_bootstrap_host, by import id and by identity: both resources take
// the account and the machine id the same way, refuse the same ids with
// the same words, and a refused identity names the identity attribute at
// fault, never the ACCOUNT_ID/MACHINE_ID form the user did not write.
func TestImportTarget(t *testing.T) {
	t.Parallel()
	reg := provider.DefaultRegistry()
	loc, err := reg.Locate("hcloud", map[string]string{"token": "env://" + acctest.HetznerCloudTokenEnv, "endpoint": "http://127.0.0.1:9/v1"})
	if err != nil {
		t.Fatal(err)
	}
	account := loc.String()
	const tooLarge = "99999999999999999999999"
	cases := []struct {
		name         string
		id           string // the import id; "" imports by identity
		account, mID string // the identity
		want, not    []string
	}{
		{name: "id", id: account + "/42"},
		{name: "id past every range", id: account + "/" + tooLarge,
			want: []string{`MACHINE_ID "` + tooLarge + `" is too large for a machine id of the hcloud adapter`, "Import ids look like ACCOUNT_ID/MACHINE_ID"}},
		{name: "id no number", id: account + "/web-1",
			want: []string{`MACHINE_ID "web-1" is not a machine id of the hcloud adapter`}},
		{name: "no import id", id: "web-1", want: []string{"is not an import id"}},
		{name: "identity", account: account, mID: "42"},
		{name: "identity id no number", account: account, mID: "web-1",
			want: []string{`identity.id "web-1" is not a machine id of the hcloud adapter`, "Set `id` to the machine's own id"},
			not:  []string{"MACHINE_ID", "ACCOUNT_ID"}},
		{name: "identity id past every range", account: account, mID: tooLarge,
			want: []string{`identity.id "` + tooLarge + `" is too large`}, not: []string{"MACHINE_ID"}},
		{name: "identity account", account: "web", mID: "42",
			want: []string{`identity.account "web" is not a compute_provider_account's id`, "Set `account` to the account's id"},
			not:  []string{"MACHINE_ID", "ACCOUNT_ID", "identity.id"}},
	}
	p := acctest.NewProto(t, reg)
	for _, resource := range []string{"compute_instance", "compute_bootstrap_host"} {
		for _, c := range cases {
			var identity *tfprotov6.ResourceIdentityData
			if c.id == "" {
				identity = p.Identity(resource, map[string]tftypes.Value{"account": acctest.String(c.account), "id": acctest.String(c.mID)})
			}
			resp := p.Import(resource, c.id, identity)
			errs := strings.Join(acctest.Diagnostics(resp.Diagnostics, tfprotov6.DiagnosticSeverityError), "\n")
			if len(c.want) == 0 && resource == "compute_bootstrap_host" {
				// The target is taken as compute_instance's is, and then
				// the account is refused: Hetzner Cloud bootstraps no host
				// (TestRobotHostIdentityProto imports a Robot server).
				if !strings.Contains(errs, "cannot bootstrap hosts") {
					t.Errorf("%s, %s: %q, want the account refused as one that cannot bootstrap", resource, c.name, errs)
				}
				continue
			}
			if len(c.want) == 0 {
				if errs != "" || len(resp.ImportedResources) != 1 {
					t.Errorf("%s, %s: %s", resource, c.name, errs)
					continue
				}
				if got := p.State(resource, resp.ImportedResources[0].State); got["id"] != "42" || got["account"] != account {
					t.Errorf("%s, %s: state %v, want id 42 on the account", resource, c.name, got)
				}
				continue
			}
			for _, w := range c.want {
				if !strings.Contains(errs, w) {
					t.Errorf("%s, %s: the refusal does not say %q:\n%s", resource, c.name, w, errs)
				}
			}
			for _, n := range c.not {
				if strings.Contains(errs, n) {
					t.Errorf("%s, %s: the refusal speaks of %s:\n%s", resource, c.name, n, errs)
				}
			}
		}
	}
}
