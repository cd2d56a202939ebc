package account_test

import (
	"regexp"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestRefusedSecretsStayOutOfTheOutput: a refusal of a value that may be a
// secret (a token pasted where a reference belongs, an endpoint with a
// password in it) is put on the resource, so that Terraform 1.15 and later,
// which print the configuration line an attribute's diagnostic points at,
// print only the block's first line. The search is over the CLI's whole
// output on purpose: what it guards is what Terraform shows, and under
// Terraform 1.11 and OpenTofu 1.12, which point at the resource anyway, it
// holds trivially (the matrix runs it under 1.15).
func TestRefusedSecretsStayOutOfTheOutput(t *testing.T) {
	t.Parallel()
	const sentinel = "SENTINELpasted9Zq"
	cases := map[string]struct{ block, refusal string }{
		"pasted token": {
			"hetzner_cloud = {\n    token = \"" + sentinel + "\"\n  }",
			"must be a secret reference, never the secret",
		},
		"password in the endpoint": {
			"hetzner_cloud = {\n    token    = \"env://X\"\n    endpoint = \"https://user:" + sentinel + "@api.example/v1\"\n  }",
			"hetzner_cloud.endpoint",
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			cli := acctest.NewCLI(t, "resource \"compute_provider_account\" \"leak\" {\n  name = \"leak\"\n  "+c.block+"\n}\n")
			out, err := cli.Run("plan", "-input=false")
			if err == nil {
				t.Fatalf("the plan went through; want it refused:\n%s", out)
			}
			if !acctest.Match(regexp.QuoteMeta(c.refusal)).MatchString(out) {
				t.Fatalf("the plan failed for another reason than the refusal %q:\n%s", c.refusal, out)
			}
			if strings.Contains(out, sentinel) {
				t.Errorf("the output shows the secret %q:\n%s", sentinel, out)
			}
		})
	}
}
