package machines_test

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// TestListBlockRefusalsNameTheBlock: the filters a list block shares with
// compute_machines are refused under a summary that names the list
// resource the user wrote, never the data source they did not.
func TestListBlockRefusalsNameTheBlock(t *testing.T) {
	t.Parallel()
	p := acctest.NewProto(t, provider.DefaultRegistry())
	const id = "hcloud:endpoint=http%3A%2F%2F127.0.0.1%3A1%2Fv1&location=fsn1&token=env%3A%2F%2FX"
	account := tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{acctest.String(id)})
	states := func(s ...string) tftypes.Value {
		vs := make([]tftypes.Value, len(s))
		for i, v := range s {
			vs[i] = acctest.String(v)
		}
		return tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, vs)
	}
	for _, list := range []string{"compute_instance", "compute_bootstrap_host"} {
		for attr, c := range map[string]struct {
			value tftypes.Value
			want  string
		}{
			"name_prefix": {acctest.String(""), "name_prefix is empty"},
			"name_regex":  {acctest.String("(web"), "is not a regular expression"},
			"states":      {states("asleep"), "which is not a machine state"},
			"accounts":    {states(id, id), "repeats accounts[0]"},
		} {
			config := map[string]tftypes.Value{"accounts": account, attr: c.value}
			var got []string
			for _, d := range p.ValidateList(list, config) {
				// The hosts' list refuses an hcloud account too, whatever
				// the filters (bootstrap's TestHostListRefusesAccountThatCannotBootstrap).
				if d.Severity == tfprotov6.DiagnosticSeverityError && !strings.Contains(d.Detail, "cannot bootstrap hosts") {
					got = append(got, d.Summary+": "+d.Detail)
				}
			}
			all := strings.Join(got, "\n")
			want := "Unable to use " + list + " list argument: "
			if len(got) != 1 || !strings.HasPrefix(all, want) || !strings.Contains(all, c.want) {
				t.Errorf("list %q with a bad %s: want one error %q…%q, got:\n%s", list, attr, want, c.want, all)
			}
		}
	}
}

// TestListBlockRefusesBlindAccountNamingTheBlock: an account whose adapter
// cannot list every machine is refused in a list block under the list
// resource's own summary too.
func TestListBlockRefusesBlindAccountNamingTheBlock(t *testing.T) {
	t.Parallel()
	def, err := provider.DefaultRegistry().Definition("hcloud")
	if err != nil {
		t.Fatal(err)
	}
	def.Kind = "blind"
	def.Capabilities = adapter.Capabilities{adapter.CapList}
	p := acctest.NewProto(t, adapter.NewRegistry(def))
	loc := adapter.Locator{Kind: "blind", Name: "b", Settings: map[string]string{"endpoint": "http://127.0.0.1:1", "token": "env://NOBODY"}}
	config := map[string]tftypes.Value{"accounts": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{acctest.String(loc.String())})}
	for _, list := range []string{"compute_instance", "compute_bootstrap_host"} {
		var got []string
		for _, d := range p.ValidateList(list, config) {
			got = append(got, d.Summary+": "+d.Detail)
		}
		all := strings.Join(got, "\n")
		if want := "Unable to use " + list + " list argument: accounts[0]"; !strings.Contains(all, want) || !strings.Contains(all, "cannot list every machine") {
			t.Errorf("list %q of an account that cannot be listed: want %q…, got:\n%s", list, want, all)
		}
	}
}
