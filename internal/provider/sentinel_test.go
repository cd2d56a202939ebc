package provider_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// Sentinels: values that must never appear in a log, a state, a plan or a
// diagnostic.
const (
	sentinelToken    = "SENTINEL-token-b7e1c0ffee42"
	sentinelSecret   = "SENTINEL-provider-secret-5a5a"
	sentinelUserData = "SENTINEL-userdata-9d3f00d"
)

// TestSecretsNeverLeak runs apply, refresh, plan, a failing refresh and
// destroy with the real terraform binary and the provider as a plugin
// process, TF_LOG=TRACE into a log file, and looks for the sentinels in the
// log, the state, the saved plan and every output.
func TestSecretsNeverLeak(t *testing.T) {
	t.Parallel()
	e, endpoint, stop, err := emu.NewServer(context.Background(), emu.Options{Token: sentinelToken})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	// A second emulator takes the provider block's secret as its token.
	e2, endpoint2, stop2, err := emu.NewServer(context.Background(), emu.Options{Token: sentinelSecret})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop2)

	cli := acctest.NewCLI(t, fmt.Sprintf(`
variable "hcloud_secret" {
  type      = string
  sensitive = true
}

provider "compute" {
  secrets = { second = var.hcloud_secret }
}

resource "compute_provider_account" "env" {
  name          = "env"
  hetzner_cloud = { token = "env://SENTINEL_HCLOUD_TOKEN", endpoint = %q }
}

resource "compute_provider_account" "secrets" {
  name          = "secrets"
  hetzner_cloud = { token = "provider://second", endpoint = %q }
}

resource "compute_instance" "web" {
  account   = compute_provider_account.env.id
  name      = "sentinel-1"
  offer_id  = "cx22"
  image     = "ubuntu-24.04"
  user_data = file("cloud-init.yaml")
}

resource "compute_instance" "other" {
  account   = compute_provider_account.secrets.id
  name      = "sentinel-2"
  offer_id  = "cx22"
  image     = "ubuntu-24.04"
  user_data = file("cloud-init.yaml")
}
`, endpoint, endpoint2))
	cli.Write("cloud-init.yaml", "#cloud-config\n# "+sentinelUserData+"\n")
	logPath := filepath.Join(t.TempDir(), "terraform.log")
	cli.Setenv("SENTINEL_HCLOUD_TOKEN", sentinelToken)
	cli.Setenv("TF_VAR_hcloud_secret", sentinelSecret)
	cli.Setenv("TF_LOG", "TRACE")
	cli.Setenv("TF_LOG_PROVIDER", "TRACE")
	cli.Setenv("TF_LOG_PATH", logPath)

	var outputs []string
	run := func(args ...string) {
		outputs = append(outputs, cli.MustRun(args...))
	}
	run("apply", "-auto-approve", "-input=false")
	if got := len(e.Servers()) + len(e2.Servers()); got != 2 {
		t.Fatalf("apply made %d servers, want 2", got)
	}
	if s := e.Servers()[0]; !strings.Contains(s.UserData, sentinelUserData) {
		t.Fatalf("the server did not receive the user data")
	}
	run("apply", "-refresh-only", "-auto-approve", "-input=false")
	run("plan", "-input=false", "-out=tfplan")
	// A saved plan holds the variables' values by Terraform's own design;
	// what the provider planned must not hold a secret.
	outputs = append(outputs, plannedParts(t, cli.MustRun("show", "-json", "tfplan")))
	run("show", "-json")

	// A failing refresh: the diagnostics it prints must not leak either.
	e.FailNext("GET", "/servers", 50, 401, "unauthorized")
	e.FailNext("GET", "/servers/{id}", 50, 401, "unauthorized")
	out, err := cli.Run("plan", "-input=false")
	if err == nil {
		t.Fatalf("plan succeeded although the API refused every read:\n%s", out)
	}
	if !strings.Contains(out, "Unable to read instance") {
		t.Fatalf("the failing plan does not explain itself:\n%s", out)
	}
	outputs = append(outputs, out)
	e.FailNext("GET", "/servers", 0, 401, "unauthorized")
	e.FailNext("GET", "/servers/{id}", 0, 401, "unauthorized")
	e.Faults().Clear()

	run("destroy", "-auto-approve", "-input=false")
	if got := len(e.Servers()) + len(e2.Servers()); got != 0 {
		t.Fatalf("destroy left %d servers", got)
	}

	logText, err := os.ReadFile(logPath)
	if err != nil || len(logText) < 10000 {
		t.Fatalf("the TRACE log is missing or too short to prove anything (%d bytes, %v)", len(logText), err)
	}
	for _, want := range []string{"provider.terraform-provider-compute:", "tf_rpc=ApplyResourceChange", "tf_resource_type=compute_instance"} {
		if !strings.Contains(string(logText), want) {
			t.Fatalf("the log holds no %q: the provider's own TRACE lines are missing, so the check would prove nothing", want)
		}
	}
	checkRequestLog(t, string(logText))
	places := map[string]string{
		"TF_LOG_PATH log":   string(logText),
		"terraform.tfstate": cli.Read("terraform.tfstate"),
		"state backup":      cli.Read("terraform.tfstate.backup"),
		"outputs":           strings.Join(outputs, "\n"),
	}
	if places["state backup"] == "" || !strings.Contains(places["state backup"], "sentinel-1") {
		t.Fatalf("the state backup does not hold the instance; the check would prove nothing")
	}
	for where, text := range places {
		for _, s := range []string{sentinelToken, sentinelSecret, sentinelUserData} {
			if strings.Contains(text, s) {
				i := strings.Index(text, s)
				t.Errorf("%s contains the sentinel %q: …%s…", where, s, text[max(0, i-300):min(len(text), i+100)])
			}
		}
	}
}

// checkRequestLog asserts that the log holds what TF_LOG=DEBUG promises:
// a line per API request in the adapter's subsystem with its method, route
// template, status, attempt and request id, the retry decisions and the
// waits. Without them the sentinel check would pass for want of lines.
func checkRequestLog(t *testing.T, log string) {
	t.Helper()
	request := []string{"API request:", "@module=compute.hcloud", "request_id=", "duration="}
	for what, parts := range map[string][]string{
		"a create":            append([]string{"method=POST", "route=/servers ", "status=201", "attempt=1/1"}, request...),
		"a read":              append([]string{"method=GET", "route=/servers/{id} ", "status=200", "attempt=1/2"}, request...),
		"a delete":            append([]string{"method=DELETE", "route=/servers/{id} ", "status=200"}, request...),
		"a refused listing":   append([]string{"method=GET", "route=/servers ", "status=401"}, request...),
		"a catalog read":      append([]string{"method=GET", "route=/server_types ", "status=200"}, request...),
		"the wait for a boot": {"wait over:", `last_state="running (raw: running)"`, "tf_rpc=ApplyResourceChange"},
		"a refused read":      {"not retrying:", "code=AccessDenied", "tf_resource_type=compute_instance"},
	} {
		if logLines(log, parts...) == 0 {
			t.Errorf("the log holds no line for %s with all of %q", what, parts)
		}
	}
	if routeWithID.MatchString(log) {
		t.Errorf("a request line shows an id in its route: %s", routeWithID.FindString(log))
	}
}

// routeWithID is a route that was not turned into its template.
var routeWithID = regexp.MustCompile(`route=\S*/[0-9]`)

// logLines counts the log's lines that hold every part.
func logLines(log string, parts ...string) int {
	n := 0
	for _, line := range strings.Split(log, "\n") {
		if !slices.ContainsFunc(parts, func(p string) bool { return !strings.Contains(line, p) }) {
			n++
		}
	}
	return n
}

// plannedParts returns the provider-made parts of a plan's JSON: the planned
// values, the resource changes and the prior state.
func plannedParts(t *testing.T, planJSON string) string {
	t.Helper()
	var plan map[string]json.RawMessage
	if err := json.Unmarshal([]byte(planJSON), &plan); err != nil {
		t.Fatalf("read plan JSON: %v", err)
	}
	var parts []string
	for _, k := range []string{"planned_values", "resource_changes", "prior_state"} {
		if len(plan[k]) == 0 {
			t.Fatalf("the plan JSON has no %s", k)
		}
		parts = append(parts, string(plan[k]))
	}
	return strings.Join(parts, "\n")
}
