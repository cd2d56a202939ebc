package account_test

import (
	"fmt"
	"net"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// TestAccountRefusedInputs: refusals Terraform shows at the resource block,
// since it cannot point into an object value, name the nested attribute in
// their text, with the value and the way out.
func TestAccountRefusedInputs(t *testing.T) {
	t.Parallel()
	cases := map[string]planError{
		"empty name":     {`name = ""` + "\n  hetzner_cloud = { token = \"env://X\" }", `name is empty; give the account a name, e\.g\. name = "prod-cloud"`},
		"empty endpoint": {`name = "x"` + "\n  hetzner_cloud = { token = \"env://X\", endpoint = \"\" }", `hetzner_cloud\.endpoint is empty; leave it out to use the default \(the environment variable HCLOUD_ENDPOINT, else https://api\.hetzner\.cloud/v1\), or set a value`},
		"empty token":    {`name = "x"` + "\n  hetzner_cloud = { token = \"\" }", `hetzner_cloud\.token is empty; set a secret reference such as env://NAME, or leave it out to read the environment variable HCLOUD_TOKEN`},
		"no block":       {`name = "x"`, `set one of\s+` + everyBlock() + `\s+e\.g\.\s+hetzner_cloud = \{ token =\s+"env://HCLOUD_TOKEN" \}`},
	}
	expectPlanErrors(t, "", cases)
}

// TestAccountUnreachableEndpoint: a refused connection is retried until the
// create timeout; the way out names the endpoint to check and the timeout.
func TestAccountUnreachableEndpoint(t *testing.T) {
	t.Parallel()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	endpoint := "http://" + l.Addr().String() + "/v1"
	l.Close()
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
resource "compute_provider_account" "test" {
  name          = "test"
  hetzner_cloud = { token = "env://%s", endpoint = %q }
  timeouts {
    create = "1s"
  }
}
`, acctest.HetznerCloudTokenEnv, endpoint),
			ExpectError: acctest.Match(`The health check of account "test" \(adapter hcloud\) failed: the backend failed or could not be reached, and kept failing while the check was retried until timeouts\.create\. Check that hetzner_cloud\.endpoint \(` + regexp.QuoteMeta(endpoint) + `\) is right and reachable from where Terraform runs, then run the command again, or raise timeouts\.create to retry for longer\..*Health check: retried for \d+s \(\d+ attempt.*refused`),
		}},
	})
}

// TestAccountUnknownLocation: a location the backend does not know is an
// error on the account's location setting at plan time, with the known
// locations, before an instance or a catalog is planned against it.
func TestAccountUnknownLocation(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	cfg := strings.Replace(e.Account(), "hetzner_cloud = {", "hetzner_cloud = {\n    location = \"xyz9\"", 1)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config:      cfg,
			PlanOnly:    true,
			ExpectError: acctest.Match(`Unable to use account configuration.*The hcloud adapter refuses hetzner_cloud\.location = "xyz9" of compute_provider_account\..*Location "xyz9" does not exist; available: .*fsn1`),
		}},
	})
}

// TestAccountUnresolvableReferenceWarns: a reference that cannot be resolved
// now is a warning at plan, before the apply's health check fails on it; the
// plan itself goes through, since the apply may run where the secret is.
func TestAccountUnresolvableReferenceWarns(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	for ref, reason := range map[string]string{
		"env://COMPUTE_TEST_NOT_SET_ANYWHERE":    `environment variable COMPUTE_TEST_NOT_SET_ANYWHERE is not set`,
		"file:///nonexistent/compute-test-token": `it does not exist`,
		"provider://missing":                     `has no entry "missing"`,
	} {
		t.Run(ref, func(t *testing.T) {
			t.Parallel()
			// Terraform folds warnings of one summary into one, so each
			// reference gets a plan of its own.
			out := acctest.NewCLI(t, e.AccountNamed("test", ref)).MustRun("plan", "-input=false")
			for _, want := range []string{
				`Warning: Secret reference cannot be resolved`,
				`hetzner_cloud.token = "` + regexp.QuoteMeta(ref) + `" cannot be resolved here: .*` + reason,
				`The apply's health check will fail unless`,
				`1 to add`,
			} {
				if !acctest.Match(want).MatchString(out) {
					t.Errorf("plan output lacks %q:\n%s", want, out)
				}
			}
		})
	}
}

// everyBlock matches the list of every registered adapter's block, in the
// registry's order, as the refusal of an account without one lists them.
func everyBlock() string {
	var out string
	for _, d := range provider.DefaultRegistry().Definitions() {
		block := d.Block
		if block == "" {
			block = d.Kind
		}
		out += regexp.QuoteMeta(block) + `,\s+`
	}
	return strings.TrimSuffix(out, `\s+`)
}
