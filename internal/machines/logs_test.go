package machines_test

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestRetriesAreLogged: an inventory the backend fails twice is retried, and
// the provider's DEBUG log says so with what was retried, as it does for
// every other operation; without those lines a slow plan is silent.
func TestRetriesAreLogged(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	e.FailNext("GET", "/servers", 2, 503, "unavailable")
	account := "hcloud:endpoint=" + url.QueryEscape(e.Endpoint) + "&location=fsn1&token=" + url.QueryEscape("env://"+acctest.HetznerCloudTokenEnv)
	cli := acctest.NewCLI(t, `
data "compute_machines" "q" {
  accounts = ["`+account+`"]
}
output "count" {
  value = length(data.compute_machines.q.machines)
}
`)
	logPath := filepath.Join(t.TempDir(), "terraform.log")
	cli.Setenv("TF_LOG_PROVIDER", "DEBUG")
	cli.Setenv("TF_LOG_PATH", logPath)
	cli.MustRun("plan", "-input=false")
	if got := e.Stats()["GET /servers"]; got != 3 {
		t.Fatalf("GET /servers served %d times, want two failures and the listing", got)
	}
	log, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	retried := 0
	for _, line := range strings.Split(string(log), "\n") {
		if strings.Contains(line, "retrying:") && strings.Contains(line, `what="list the machines of accounts[0]"`) &&
			strings.Contains(line, "tf_data_source_type=compute_machines") {
			retried++
		}
	}
	if retried != 2 {
		t.Errorf("the log holds %d retry lines of the inventory, want 2", retried)
	}
}
