package account_test

import (
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestAccountSettingErrorsHideCredentials: an endpoint that carries a
// credential (a user part, a query, or in a URL too malformed to parse) is
// refused without the credential reaching the diagnostics, even when the
// value comes from a sensitive variable that Terraform itself hides.
func TestAccountSettingErrorsHideCredentials(t *testing.T) {
	t.Parallel()
	const secret = "SENTINEL-endpoint-pass-7c1d"
	for name, endpoint := range map[string]string{
		"user part": "https://user:" + secret + "@api.example.com/v1",
		"query":     "https://api.example.com/v1?token=" + secret,
		"malformed": "https://user:" + secret + "%zz@api.example.com/v1",
		"fragment":  "https://api.example.com/v1#" + secret,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cli := acctest.NewCLI(t, `
variable "endpoint" {
  type      = string
  sensitive = true
}

resource "compute_provider_account" "test" {
  name          = "x"
  hetzner_cloud = { token = "env://X", endpoint = var.endpoint }
}
`)
			cli.Setenv("TF_VAR_endpoint", endpoint)
			for _, args := range [][]string{{"plan", "-input=false"}} {
				out, err := cli.Run(args...)
				if err == nil {
					t.Fatalf("terraform %s accepted endpoint %q:\n%s", args[0], endpoint, out)
				}
				if !strings.Contains(out, "endpoint") {
					t.Fatalf("terraform %s does not say what is wrong:\n%s", args[0], out)
				}
				if strings.Contains(out, secret) {
					t.Errorf("terraform %s shows the credential in the endpoint:\n%s", args[0], out)
				}
			}
		})
	}
}

// TestAccountRefusedTokenWarnsAtPlan: a token the backend refuses is heard
// of at plan, as a warning (the apply may run where the right one is), and
// the apply then fails with the way out.
func TestAccountRefusedTokenWarnsAtPlan(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	c := acctest.NewCLI(t, e.AccountNamed("test", "env://"+acctest.WrongTokenEnv))
	out, err := c.Run("plan")
	if err != nil || !acctest.Match(`Warning: Account not checked .*health check of compute_provider_account failed at plan`).MatchString(out) {
		t.Fatalf("plan with a refused token: %v, want a plan with the warning:\n%s", err, out)
	}
}
