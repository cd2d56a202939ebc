package instance_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// querySentinel is a token the emulator refuses: a list block over an
// account that holds it fails, and nothing it sends may repeat it.
const querySentinel = "SENTINEL-query-token-5d0e7a"

// sentinelAccount is an account on e whose token reference is ref.
func sentinelAccount(t *testing.T, e *acctest.Emulator, ref string) string {
	t.Helper()
	loc, err := provider.DefaultRegistry().Locate("hcloud", map[string]string{"token": ref, "endpoint": e.Endpoint})
	if err != nil {
		t.Fatal(err)
	}
	return loc.String()
}

// TestInstanceListSecretNeverLeaksProto: a list whose account's token the
// backend refuses fails, through the protocol as terraform query calls it
// (so any terraform on PATH covers it), and neither the result's
// diagnostics nor its display name repeats the token.
func TestInstanceListSecretNeverLeaksProto(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	e.AddServer(emu.Server{Name: "web-1"})
	file := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(file, []byte(querySentinel), 0o600); err != nil {
		t.Fatal(err)
	}
	p := acctest.NewProto(t, provider.DefaultRegistry())
	got := p.List("compute_instance", map[string]tftypes.Value{
		"accounts": tftypes.NewValue(tftypes.List{ElementType: tftypes.String}, []tftypes.Value{acctest.String(sentinelAccount(t, e, "file://"+file))}),
	}, true)
	var sent []string
	refused := false
	for _, r := range got {
		sent = append(sent, r.DisplayName)
		for _, d := range r.Diagnostics {
			sent = append(sent, d.Summary, d.Detail)
			refused = refused || (d.Severity == tfprotov6.DiagnosticSeverityError && strings.Contains(d.Detail, "credentials"))
		}
	}
	if !refused {
		t.Fatalf("the list over a refused token did not fail on its credentials; the check would prove nothing: %+v", got)
	}
	if text := strings.Join(sent, "\n"); strings.Contains(text, querySentinel) {
		t.Errorf("the list's results repeat the token:\n%s", text)
	}
}

// TestInstanceQuerySecretNeverLeaks runs terraform query (Terraform 1.14
// and later) over an account whose token the backend refuses, with
// TF_LOG=TRACE into a file, and looks for the token in the log, the
// query's output and every diagnostic and display name the provider sent.
func TestInstanceQuerySecretNeverLeaks(t *testing.T) {
	t.Parallel()
	acctest.Require(t, acctest.Query)
	e := acctest.NewEmulator(t)
	e.AddServer(emu.Server{Name: "web-1"})
	const env = "COMPUTE_TEST_QUERY_SENTINEL"
	c := acctest.NewCLI(t, "")
	c.Setenv(env, querySentinel)
	logPath := filepath.Join(t.TempDir(), "terraform.log")
	c.Setenv("TF_LOG", "TRACE")
	c.Setenv("TF_LOG_PROVIDER", "TRACE")
	c.Setenv("TF_LOG_PATH", logPath)
	c.Write("q.tfquery.hcl", `
list "compute_instance" "all" {
  provider         = compute
  include_resource = true
  config {
    accounts = [`+strconv.Quote(sentinelAccount(t, e, "env://"+env))+`]
  }
}
`)
	out, err := c.Run("query")
	if err == nil || !strings.Contains(out, "credentials") {
		t.Fatalf("the query over a refused token: %v, want it to fail on its credentials; the check would prove nothing:\n%s", err, out)
	}
	logText, err := os.ReadFile(logPath)
	if err != nil || !strings.Contains(string(logText), "tf_rpc=ListResource") || !strings.Contains(string(logText), "route=/servers") {
		t.Fatalf("the TRACE log (%v) holds no list call or request: the check would prove nothing", err)
	}
	var sent []string
	for _, d := range c.Written().Diagnostics() {
		sent = append(sent, d.Summary, d.Detail)
	}
	if !strings.Contains(strings.Join(sent, "\n"), "credentials") {
		t.Fatalf("the provider's recorded diagnostics hold no refusal: the check would prove nothing: %v", sent)
	}
	for where, text := range map[string]string{"TF_LOG_PATH log": string(logText), "output": out, "diagnostics": strings.Join(sent, "\n")} {
		if i := strings.Index(text, querySentinel); i >= 0 {
			t.Errorf("%s holds the token: …%s…", where, text[max(0, i-300):min(len(text), i+100)])
		}
	}
}
