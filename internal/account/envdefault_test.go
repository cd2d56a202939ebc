package account_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// tokenLeftOut is an account on e whose configuration leaves the token out,
// with an instance on it, or with the token written as tokenLine.
func tokenLeftOut(e *acctest.Emulator, tokenLine string) string {
	return fmt.Sprintf(`
resource "compute_provider_account" "test" {
  name = "test"
  hetzner_cloud = {
    %s
    endpoint = %q
  }
}

resource "compute_instance" "web" {
  account  = compute_provider_account.test.id
  name     = "web-1"
  offer_id = "cx22"
  image    = "ubuntu-24.04"
}
`, tokenLine, e.Endpoint)
}

// TestAccountTokenFromEnvironment: an account that leaves the token out
// reads it from HCLOUD_TOKEN, as the hcloud provider does: the apply works,
// the next plan is empty, and state and the trace log hold the reference,
// never the token.
func TestAccountTokenFromEnvironment(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	cli := acctest.NewCLI(t, tokenLeftOut(e, ""))
	cli.Setenv("HCLOUD_TOKEN", acctest.Token)
	logPath := filepath.Join(t.TempDir(), "trace.log")
	cli.Setenv("TF_LOG", "TRACE")
	cli.Setenv("TF_LOG_PATH", logPath)
	out := cli.MustRun("apply", "-auto-approve", "-input=false")
	out += cli.MustRun("plan", "-input=false", "-detailed-exitcode")
	state := cli.Read("terraform.tfstate")
	if !strings.Contains(state, `"token": "env://HCLOUD_TOKEN"`) || !strings.Contains(state, `\"token\":\"env://HCLOUD_TOKEN\"`) {
		t.Errorf("state does not record the default reference in the block and the id:\n%s", state)
	}
	log, _ := os.ReadFile(logPath)
	for what, text := range map[string]string{"output": out, "state": state, "trace log": string(log)} {
		if strings.Contains(text, acctest.Token) {
			t.Errorf("the %s holds the token", what)
		}
	}
	if len(log) == 0 {
		t.Error("the trace log is empty, so the search above proves nothing")
	}
	if n := len(e.Live()); n != 1 {
		t.Errorf("%d servers, want the instance's", n)
	}
}

// TestAccountTokenDefaultIsTheWrittenReference: a state whose configuration
// wrote token = "env://HCLOUD_TOKEN" plans no change once the line is
// removed: neither the account nor its instance.
func TestAccountTokenDefaultIsTheWrittenReference(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	cli := acctest.NewCLI(t, tokenLeftOut(e, `token = "env://HCLOUD_TOKEN"`))
	cli.Setenv("HCLOUD_TOKEN", acctest.Token)
	cli.MustRun("apply", "-auto-approve", "-input=false")
	cli.Config(tokenLeftOut(e, ""))
	if out, err := cli.Run("plan", "-input=false", "-detailed-exitcode"); err != nil {
		t.Fatalf("removing the line that wrote the default plans a change (%v):\n%s", err, out)
	}
}

// TestAccountTokenDefaultUnset: with the token left out and HCLOUD_TOKEN
// not set, the plan warns on the attribute, naming the variable and both
// ways out, and the apply fails the same way before anything is created.
func TestAccountTokenDefaultUnset(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	cli := acctest.NewCLI(t, tokenLeftOut(e, ""))
	cli.Unsetenv("HCLOUD_TOKEN")
	wayOut := `hetzner_cloud\.token is left out, so it defaults to env://HCLOUD_TOKEN\. Set the environment variable HCLOUD_TOKEN in the environment that runs Terraform .*or set hetzner_cloud\.token to a secret reference`
	out := cli.MustRun("plan", "-input=false")
	for _, want := range []string{
		`Warning: Secret reference cannot be resolved`,
		`environment variable HCLOUD_TOKEN is not set`,
		wayOut,
	} {
		if !acctest.Match(want).MatchString(out) {
			t.Errorf("plan output lacks %q:\n%s", want, out)
		}
	}
	out, err := cli.Run("apply", "-auto-approve", "-input=false")
	if err == nil {
		t.Fatalf("the apply succeeded without the token:\n%s", out)
	}
	if !acctest.Match(`Error: Unable to create provider account .*failed: its token names no secret here\. ` + wayOut).MatchString(out) {
		t.Errorf("the apply does not say what to do:\n%s", out)
	}
	if n := len(e.Servers()); n != 0 {
		t.Errorf("the failed apply left %d servers", n)
	}
}

// TestAccountEndpointFromEnvironment: `hetzner_cloud = {}` is a whole
// account where HCLOUD_TOKEN and HCLOUD_ENDPOINT are set. The endpoint's
// value is recorded in the id, so a later plan where the variable differs
// (or is gone: TestDefinitionEnvDefaults) shows the account moving instead
// of reaching another API unseen.
func TestAccountEndpointFromEnvironment(t *testing.T) {
	t.Parallel()
	e, other := acctest.NewEmulator(t), acctest.NewEmulator(t)
	cli := acctest.NewCLI(t, `
resource "compute_provider_account" "test" {
  name          = "test"
  hetzner_cloud = {}
}
`)
	cli.Setenv("HCLOUD_TOKEN", acctest.Token)
	cli.Setenv("HCLOUD_ENDPOINT", e.Endpoint)
	cli.MustRun("apply", "-auto-approve", "-input=false")
	cli.MustRun("plan", "-input=false", "-detailed-exitcode")
	if state := cli.Read("terraform.tfstate"); !strings.Contains(state, `"endpoint": "`+e.Endpoint+`"`) {
		t.Errorf("state does not record the endpoint HCLOUD_ENDPOINT gave:\n%s", state)
	}
	// Another loopback API, not the default: tests dial nothing else.
	cli.Setenv("HCLOUD_ENDPOINT", other.Endpoint)
	out, err := cli.Run("plan", "-input=false", "-detailed-exitcode")
	if err == nil || !acctest.Match(`~ endpoint = "`+regexp.QuoteMeta(e.Endpoint)+`" -> "`+regexp.QuoteMeta(other.Endpoint)+`"`).MatchString(out) {
		t.Errorf("a plan with another HCLOUD_ENDPOINT does not show the endpoint change (%v):\n%s", err, out)
	}
}
