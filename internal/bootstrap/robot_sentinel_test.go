package bootstrap_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

const (
	robotSentinelSecret  = "SENTINEL-robot-file-secret-93d1aa"
	robotSentinelContent = "SENTINEL-robot-content-wo-50c7e2"
)

// TestRobotSecretsNeverLeak bootstraps a Robot server with a file whose
// secret is an env:// reference and one given as content_wo, then looks
// for the Robot password, the SSH private key and both contents in the
// TRACE log, every plan and state, and every command line and env request
// the SSH farm recorded. Both files are read back from the installed disk
// first, so the search cannot pass because nothing was delivered.
func TestRobotSecretsNeverLeak(t *testing.T) {
	dir := t.TempDir()
	content := filepath.Join(dir, "content")
	if err := os.WriteFile(content, []byte(robotSentinelContent), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("ROBOT_TEST_FILE_SECRET", robotSentinelSecret)
	t.Setenv("TF_LOG", "TRACE")
	t.Setenv("TF_LOG_PATH_MASK", filepath.Join(dir, "%s.log"))
	m := acctest.NewMetal(t)
	n, mach := m.AddServer(t, "")
	files := fmt.Sprintf(`files = [
    { path = "/etc/agent/token", secret = "env://ROBOT_TEST_FILE_SECRET" },
    { path = "/etc/agent/key", mode = "0400", content_wo = file(%q), content_wo_version = 1 },
  ]`, content)
	config := robotHost(m, nil, fmt.Sprintf(`machine_id = "%d"`, n), files)
	var seen []string
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             m.CheckReleased(n, ""),
		Steps: []resource.TestStep{{
			Config:            config,
			ConfigPlanChecks:  resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{planText{&seen}}},
			ConfigStateChecks: []statecheck.StateCheck{stateText{&seen}},
			Check: func(s *terraform.State) error {
				key := strings.TrimPrefix(s.RootModule().Resources[addr].Primary.Attributes["known_hosts"], m.Robot.Servers()[0].IP+" ")
				for path, want := range map[string]string{"/etc/agent/token": robotSentinelSecret, "/etc/agent/key": robotSentinelContent} {
					if got := m.InstalledFile(t, n, key, path); got != want {
						return fmt.Errorf("%s on the installed disk holds %d bytes, not the configured content, so the search would prove nothing", path, len(got))
					}
				}
				return nil
			},
		}},
	})
	logs, _ := filepath.Glob(filepath.Join(dir, "*.log"))
	var log strings.Builder
	for _, p := range logs {
		b, _ := os.ReadFile(p)
		log.Write(b)
	}
	for _, want := range []string{"bootstrap phase", "tf_rpc=ApplyResourceChange", "content_wo", "ssh command"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("the TRACE log (%d bytes) holds no %q, so the search would prove little", log.Len(), want)
		}
	}
	places := slices.Concat(seen, []string{"log: " + log.String()})
	for _, c := range mach.Commands() {
		places = append(places, "command: "+c.Line)
	}
	for _, e := range m.Farm.EnvRequests() {
		places = append(places, "env: "+e.Name)
	}
	if len(places) < 20 {
		t.Fatalf("only %d places to search", len(places))
	}
	privateLine := strings.Split(strings.TrimSpace(m.PrivateKeyPEM), "\n")[1]
	for _, text := range places {
		for _, s := range []string{acctest.RobotPassword, privateLine, robotSentinelSecret, robotSentinelContent} {
			if j := strings.Index(text, s); j >= 0 {
				t.Errorf("%.8s… holds %.12s…: …%s…", text, s, text[max(0, j-120):min(len(text), j+40)])
			}
		}
	}
}
