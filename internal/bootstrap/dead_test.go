package bootstrap_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestPlanAgainstADeadRobot: a host bootstrapped on a Robot account, with
// compute_offers on the same account, is planned after the webservice went
// down (its port closed). The plan fails, the host's refresh and the
// listing each naming the endpoint and saying the state is kept; the state
// file is untouched; and the webservice is tried seven times by the
// account's refresh (30s of quick retries on the provider's clock) and once
// by each of the two reads after it, not until their read timeouts.
func TestPlanAgainstADeadRobot(t *testing.T) {
	t.Parallel()
	m := acctest.NewMetal(t)
	n, _ := m.AddServer(t, "")
	cli := acctest.NewCLI(t, robotHost(m, nil, fmt.Sprintf(`machine_id = "%d"`, n))+`
data "compute_offers" "robot" {
  accounts = [compute_provider_account.robot.id]
}
`)
	cli.MustRun("apply", "-auto-approve")
	applied := cli.Read("terraform.tfstate")
	if !strings.Contains(applied, `"phase": "ready"`) {
		t.Fatalf("the apply bootstrapped no host, so the plan below would prove nothing:\n%s", applied)
	}

	m.Stop()
	logPath := filepath.Join(t.TempDir(), "terraform.log")
	cli.Setenv("TF_LOG_PROVIDER", "DEBUG")
	cli.Setenv("TF_LOG_PATH", logPath)
	out, err := cli.Run("plan")
	if err == nil {
		t.Fatalf("the plan against a dead webservice succeeded:\n%s", out)
	}
	text := strings.Join(strings.Fields(out), " ")
	for _, heading := range []string{"Error: Unable to read bootstrap host", "Error: Unable to list offers"} {
		_, d, _ := strings.Cut(text, heading)
		if i := strings.Index(d, "Error: "); i >= 0 {
			d = d[:i]
		}
		for _, says := range []string{"The account's endpoint " + m.Endpoint + " could not be reached (connection refused)",
			"the state is kept as it was", "set timeouts.unreachable to retry for longer"} {
			if !strings.Contains(d, says) {
				t.Errorf("%s does not say %q:\n%s", heading, says, text)
			}
		}
	}
	if now := cli.Read("terraform.tfstate"); now != applied {
		t.Errorf("the failed plan changed the state file:\nbefore: %s\nafter: %s", applied, now)
	}
	log, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	refused := 0
	for _, line := range strings.Split(string(log), "\n") {
		if strings.Contains(line, "Robot request: ") && strings.Contains(line, `error="connection refused"`) {
			refused++
		}
	}
	if refused == 0 || refused > 7+2 {
		t.Errorf("%d refused requests to the webservice, want 1 to 9: 7 by the account's refresh, 1 by each read after it", refused)
	}
	t.Logf("%d refused requests to the webservice", refused)
}
