package machines_test

import (
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// sentinel stands for a token pasted where it does not belong.
const sentinel = "SENTINELmach7Qx2Lr9dKq4WmZ8vTnB3yHfJ6sPc1aGuE5oNiXkV0bRwMzYtLdA"

// TestAccountsNeverEchoed feeds the sentinel through each diagnostic of
// compute_machines that repeats an account id (an id that is not one, a
// listing that fails on the endpoint it names) with the real terraform
// binary under TF_LOG=TRACE: each run fails with that diagnostic, and the
// sentinel is in neither the output nor the log. The value comes in through
// a sensitive variable, so Terraform itself shows none of it.
func TestAccountsNeverEchoed(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	closed := strings.TrimSuffix(strings.TrimPrefix(closedEndpoint(t), "http://"), "/v1")
	id := func(endpoint, token string) string {
		return "hcloud:endpoint=" + url.QueryEscape(endpoint) + "&location=fsn1&token=" + url.QueryEscape(token)
	}
	cases := []struct{ name, input, want string }{
		{"token pasted into the id", id(e.Endpoint, sentinel),
			`Error: Unable to list machines .*accounts\[0\] = "hcloud:endpoint=\S+&location=fsn1&token=…" is not a compute_provider_account id: token: the value is not a secret reference`},
		{"token as a reference's name", id(e.Endpoint, "env://"+sentinel+"-x"),
			`accounts\[0\] = "hcloud:endpoint=\S+&location=fsn1&token=env://…" is not a compute_provider_account id: token: secret reference env://… is malformed`},
		{"token in the endpoint's path", id("http://"+closed+"/"+sentinel+"/v1", "env://"+acctest.HetznerCloudTokenEnv),
			`Listing the machines of account hetzner_cloud at http://` + regexp.QuoteMeta(closed) + `/… failed\..*could not be reached`},
		{"no id at all", sentinel, `accounts\[0\] \(the value is not shown, it may be a secret\) is not a compute_provider_account id`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			cli := acctest.NewCLI(t, `
variable "input" {
  type      = string
  sensitive = true
}
data "compute_machines" "q" {
  accounts = [var.input]
  timeouts {
    read = "1s"
  }
}
`)
			logPath := filepath.Join(t.TempDir(), "terraform.log")
			cli.Setenv("TF_VAR_input", c.input)
			cli.Setenv("TF_LOG", "TRACE")
			cli.Setenv("TF_LOG_PATH", logPath)
			out, _ := cli.Run("plan", "-input=false")
			if !acctest.Match(c.want).MatchString(strings.Join(strings.Fields(out), " ")) {
				t.Fatalf("terraform plan did not fail with %q, so the case proves nothing:\n%s", c.want, out)
			}
			log, err := os.ReadFile(logPath)
			if err != nil || !strings.Contains(string(log), "provider.terraform-provider-compute:") {
				t.Fatalf("the TRACE log holds no line of the provider (%v), so the check would prove nothing", err)
			}
			for where, text := range map[string]string{"output": out, "log": string(log)} {
				if i := strings.Index(text, sentinel); i >= 0 {
					t.Errorf("the %s repeats the input: …%s…", where, text[max(0, i-300):min(len(text), i+100)])
				}
			}
		})
	}
}
