package provider_test

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/netfault"
)

// sentinelInput stands for a secret a user put where it does not belong: a
// token (64 characters of mixed case, like a Hetzner Cloud token) pasted into
// an id or where a reference belongs, a password in an endpoint.
const sentinelInput = "SENTINELecho7Qx2Lr9dKq4WmZ8vTnB3yHfJ6sPc1aGuE5oNiXkV0bRwMzYtLdA"

// TestInputsNeverEchoed feeds the sentinel through every diagnostic path that
// prints user input (instance import ids on the command line and in import
// blocks, an account's import id, compute_offers' accounts, an instance's
// account, an account's settings)
// in each position it can take in such a value (a setting of an id, the
// machine id, an endpoint's path, user part and query, a malformed
// reference, a token where a reference belongs, a value that is no id at
// all). It runs the real terraform binary with TF_LOG=TRACE and asserts that
// each run failed or warned with the diagnostic that prints the value, and
// that the sentinel appears neither in terraform's output nor in its log.
//
// Values come in through a sensitive variable, so that Terraform itself
// shows none of them: whatever shows one is the provider. The only echoes
// left out are Terraform's own repetitions of an import id (its progress
// line and its log of the command line and of the graph), which no
// provider can prevent.
func TestInputsNeverEchoed(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	closed := closedAddr(t)
	// An account id as compute_provider_account makes one, with the
	// sentinel in one setting.
	id := func(endpoint, token string) string {
		return "hcloud:endpoint=" + url.QueryEscape(endpoint) + "&location=fsn1&token=" + url.QueryEscape(token)
	}
	good := id(e.Endpoint, "env://"+acctest.HetznerCloudTokenEnv)
	const (
		// A compute_instance for terraform import; its account is not
		// what is imported.
		importTarget = `
resource "compute_instance" "x" {
  account  = "hcloud:token=env%3A%2F%2FX"
  name     = "x"
  offer_id = "cx22"
  image    = "ubuntu-24.04"
}
`
		importBlock = `
import {
  to = compute_instance.x
  id = "${var.input}/42"
}
` + importTarget
		// A short read timeout: a catalog that cannot be reached is
		// retried until it ends.
		offers = `
data "compute_offers" "q" {
  accounts = [var.input]
  timeouts {
    read = "1s"
  }
}
`
		instanceOn = `
resource "compute_instance" "x" {
  account  = var.input
  name     = "x"
  offer_id = "cx22"
  image    = "ubuntu-24.04"
}
`
		accountWith = `
resource "compute_provider_account" "x" {
  name          = "x"
  hetzner_cloud = { %s = var.input }
}
`
	)
	imp := func(importID string) []string {
		return []string{"import", "-input=false", "compute_instance.x", importID}
	}
	plan := []string{"plan", "-input=false"}
	cases := []struct {
		name   string
		config string
		input  string
		args   []string
		want   string
	}{
		{"import id: token pasted into the account id", importTarget, "", imp(id(e.Endpoint, sentinelInput) + "/42"),
			`Error: Unable to import instance .*token=…/42" is malformed: token: the value is not a secret reference`},
		{"import id: machine id", importTarget, "", imp(good + "/" + sentinelInput),
			`Error: Unable to import instance .*/…" is malformed: MACHINE_ID \(the value is not shown, it may be a secret\) is not a machine id`},
		{"import id: endpoint user part", importTarget, "", imp(id("https://user:"+sentinelInput+"@api.example.com/v1", "env://T") + "/42"),
			`Error: Unable to import instance .*endpoint=https://…@api\.example\.com/v1.*carries credentials`},
		{"import id: not an id at all", importTarget, "", imp(sentinelInput),
			`Error: Unable to import instance The import id \(the value is not shown, it may be a secret\) is malformed`},
		{"account import id: token pasted into it", `
resource "compute_provider_account" "x" {
  name          = "x"
  hetzner_cloud = { token = "env://T" }
}
`, "", []string{"import", "-input=false", "compute_provider_account.x", id(e.Endpoint, sentinelInput)},
			`Error: Unable to import provider account .*token: the value is not a secret reference`},
		{"import block id: malformed reference", importBlock, id(e.Endpoint, "env://"+sentinelInput+"-x"), plan,
			`Error: Unable to import instance .*token=env://…/42" is malformed: token: secret reference env://… is malformed`},
		{"accounts: token pasted into the account id", offers, id(e.Endpoint, sentinelInput), plan,
			`Error: Unable to list offers .*accounts\[0\] = "hcloud:endpoint=\S+&location=fsn1&token=…" is not a compute_provider_account id: token: the value is not a secret reference`},
		{"accounts: no id at all", offers, sentinelInput, plan,
			`accounts\[0\] \(the value is not shown, it may be a secret\) is not a compute_provider_account id`},
		{"accounts: endpoint path", offers, id("http://"+closed+"/"+sentinelInput+"/v1", "env://"+acctest.HetznerCloudTokenEnv), plan,
			`Error: Unable to list offers .*Listing the offers of account hetzner_cloud at http://` + regexp.QuoteMeta(closed) + `/… with filters .* failed\..*could not be reached`},
		{"accounts: endpoint user part", offers, id("https://user:"+sentinelInput+"@api.example.com/v1", "env://T"), plan,
			`accounts\[0\] = "hcloud:endpoint=https://…@api\.example\.com/v1&location=fsn1&token=env://T" is not a compute_provider_account id: endpoint: the endpoint carries credentials`},
		{"accounts: endpoint query", offers, id("https://api.example.com/v1?key="+sentinelInput, "env://T"), plan,
			`accounts\[0\] = "hcloud:endpoint=https://api\.example\.com/v1\?…&.*endpoint: it is not a base URL`},
		{"accounts: malformed reference", offers, id(e.Endpoint, "env://"+sentinelInput+"-x"), plan,
			`accounts\[0\] = "hcloud:endpoint=\S+&location=fsn1&token=env://…" is not a compute_provider_account id: token: secret reference env://… is malformed`},
		{"instance account: token pasted into the account id", instanceOn, id(e.Endpoint, sentinelInput), plan,
			`Error: Unable to use account .*token: the value is not a secret reference`},
		{"instance account: unknown scheme", instanceOn, id(e.Endpoint, "vault://"+sentinelInput), plan,
			`Error: Unable to use account .*secret reference vault://…: scheme "vault" is not known`},
		{"instance account: endpoint path", instanceOn, id("http://"+closed+"/"+sentinelInput+"/v1", "env://"+acctest.HetznerCloudTokenEnv), plan,
			`Warning: Instance not checked against the catalog .*could not be reached \(connection refused\): Get "http://` + regexp.QuoteMeta(closed) + `/…\?…"`},
		{"account token: pasted token", fmt.Sprintf(accountWith, "token"), sentinelInput, plan,
			`Error: Unable to use secret reference .*hetzner_cloud\.token must be a secret reference, never the secret: the value is not a secret reference`},
		{"account token: a token as a reference's name", fmt.Sprintf(accountWith, "token"), "env://" + sentinelInput, plan,
			`secret reference env://… is malformed`},
		{"account endpoint: a token as the host", strings.Replace(fmt.Sprintf(accountWith, "endpoint"), "{ ", `{ token = "env://T", `, 1), "http://" + sentinelInput + "/v1", plan,
			`Error: Unable to use account setting .*hetzner_cloud\.endpoint = "http://…/v1" is refused`},
		{"account token: malformed reference", fmt.Sprintf(accountWith, "token"), "file://" + sentinelInput, plan,
			`Error: Unable to use secret reference .*secret reference file://… is malformed`},
		{"account endpoint: user part", strings.Replace(fmt.Sprintf(accountWith, "endpoint"), "{ ", `{ token = "env://T", `, 1), "https://u:" + sentinelInput + "@api.example.com/v1", plan,
			`Error: Unable to use account setting .*hetzner_cloud\.endpoint = "https://…@api\.example\.com/v1" is refused: the endpoint carries credentials`},
		{"account endpoint: query", strings.Replace(fmt.Sprintf(accountWith, "endpoint"), "{ ", `{ token = "env://T", `, 1), "https://api.example.com/v1?token=" + sentinelInput, plan,
			`Error: Unable to use account setting .*hetzner_cloud\.endpoint = "https://api\.example\.com/v1\?…" is refused: it is not a base URL`},
		{"account location: pasted token", strings.Replace(fmt.Sprintf(accountWith, "location"), "{ ", `{ token = "env://T", `, 1), sentinelInput, plan,
			`Error: Unable to use account setting .*hetzner_cloud\.location \(the value is not repeated here: messages repeat only plain words, URLs and secret references\) is refused: it is not a Hetzner Cloud location name`},
	}
	// The cases whose requests reach the network, where the request log
	// must show them without the endpoint's path.
	requestsLogged := map[string]bool{"accounts: endpoint path": true, "instance account: endpoint path": true}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if c.config == importBlock {
				acctest.SkipUnderOpenTofu(t, "it refuses a sensitive import block id (\"The import id cannot be sensitive\"), and only a sensitive variable keeps the CLI's own display of the value out of the search")
			}
			cli := acctest.NewCLI(t, "\nvariable \"input\" {\n  type      = string\n  sensitive = true\n  default   = \"\"\n}\n"+c.config)
			logPath := filepath.Join(t.TempDir(), "terraform.log")
			cli.Setenv("TF_VAR_input", c.input)
			cli.Setenv("TF_LOG", "TRACE")
			cli.Setenv("TF_LOG_PATH", logPath)
			out, _ := cli.Run(c.args...)
			if !acctest.Match(c.want).MatchString(strings.Join(strings.Fields(out), " ")) {
				t.Fatalf("terraform %s did not fail or warn with %q, so the case proves nothing:\n%s", c.args[0], c.want, out)
			}
			log, err := os.ReadFile(logPath)
			if err != nil || !strings.Contains(string(log), "provider.terraform-provider-compute:") {
				t.Fatalf("the TRACE log holds no line of the provider (%v), so the check would prove nothing", err)
			}
			if requestsLogged[c.name] && logLines(string(log), "API request:", "@module=compute.hcloud", `error="connection refused"`, "route=/") == 0 {
				t.Fatalf("the log holds no line of the refused API requests, so the check of the request log would prove nothing")
			}
			places := map[string]string{
				"output":          withoutTerraformsOwnEcho(out),
				"TF_LOG_PATH log": withoutCoreImportIDs(string(log)),
				"state":           cli.Read("terraform.tfstate"),
			}
			for where, text := range places {
				if i := strings.Index(text, sentinelInput); i >= 0 {
					t.Errorf("the %s repeats the input: …%s…", where, text[max(0, i-300):min(len(text), i+100)])
				}
			}
		})
	}
}

// withoutTerraformsOwnEcho drops the lines in which Terraform itself repeats
// an import id as it starts the import.
func withoutTerraformsOwnEcho(out string) string {
	var keep []string
	for _, line := range strings.Split(out, "\n") {
		if strings.Contains(line, ": Importing from ID ") || strings.Contains(line, ": Preparing import... [id=") {
			continue
		}
		keep = append(keep, line)
	}
	return strings.Join(keep, "\n")
}

// logEntryStart begins each entry of a TF_LOG_PATH log; other lines continue
// the entry before them.
var logEntryStart = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\S+ \[[A-Z]+\] `)

// withoutCoreImportIDs drops the entries in which Terraform core, not the
// provider, logs its command line or an import id (graph nodes are named
// after it). Every entry of the provider stays.
func withoutCoreImportIDs(log string) string {
	var keep, entry []string
	flush := func() {
		text := strings.Join(entry, "\n")
		core := len(entry) > 0 && !strings.Contains(entry[0], "provider.terraform-provider-compute")
		if !core || !(strings.Contains(text, "CLI args: ") || strings.Contains(text, "CLI command args: ") || strings.Contains(text, "import id ")) {
			keep = append(keep, entry...)
		}
		entry = nil
	}
	for _, line := range strings.Split(log, "\n") {
		if logEntryStart.MatchString(line) {
			flush()
		}
		entry = append(entry, line)
	}
	flush()
	return strings.Join(keep, "\n")
}

// closedAddr is a loopback host:port that nothing listens on.
func closedAddr(t *testing.T) string { return netfault.ClosedAddr(t) }
