package machines_test

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// TestLabelsFilterNoMachineCanCarry: a labels filter whose key, or whose
// value, the listed account's adapter refuses on a machine is refused on
// that key, naming the rule, as compute_instance refuses such a label; a
// label the adapter allows is not.
func TestLabelsFilterNoMachineCanCarry(t *testing.T) {
	t.Parallel()
	reg := provider.DefaultRegistry()
	loc, err := reg.Locate("hcloud", map[string]string{"token": "env://" + acctest.HetznerCloudTokenEnv, "endpoint": "http://127.0.0.1:9/v1"})
	if err != nil {
		t.Fatal(err)
	}
	p := acctest.NewProto(t, reg)
	labels := func(kv map[string]string) map[string]tftypes.Value {
		m := map[string]tftypes.Value{}
		for k, v := range kv {
			m[k] = acctest.String(v)
		}
		return map[string]tftypes.Value{
			"accounts": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{acctest.String(loc.String())}),
			"labels":   tftypes.NewValue(tftypes.Map{ElementType: tftypes.String}, m),
		}
	}
	for _, resource := range []string{"compute_instance", "compute_bootstrap_host"} {
		for _, c := range []struct {
			labels map[string]string
			want   string
		}{
			{map[string]string{"role": "web"}, ""},
			{map[string]string{"bad key!": "x"}, `ElementKeyString\("bad key!"\): .*labels key "bad key!" is not a label key any listed account's adapter accepts`},
			{map[string]string{"role": "x y z"}, `ElementKeyString\("role"\): .*labels\["role"\] = "x y z" is not a label value`},
		} {
			if resource == "compute_bootstrap_host" && c.want == "" {
				continue // an hcloud account is refused there anyway
			}
			errs := strings.Join(acctest.Diagnostics(p.ValidateList(resource, labels(c.labels)), tfprotov6.DiagnosticSeverityError), "\n")
			switch {
			case c.want == "" && errs != "":
				t.Errorf("%s, labels %v: %s", resource, c.labels, errs)
			case c.want != "" && !acctest.Match(c.want).MatchString(errs):
				t.Errorf("%s, labels %v: %q, want %s", resource, c.labels, errs, c.want)
			}
		}
	}
}
