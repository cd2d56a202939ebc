// Package examples_test applies every configuration under examples/ with the
// real terraform binary against the standalone emulator (tools/emulator), so
// the examples that the documentation shows and the quick start that
// `make demo` runs are known to work, not merely to parse.
//
// The provider runs in this process (terraform-plugin-testing reattaches
// terraform to it); the emulator runs as a child process, one per test, so
// tests share no backend state and can run in parallel. Nothing here talks to
// anything but 127.0.0.1.
//
// It imports the provider package, terraform-plugin-testing and the standard
// library; the emulator is reached only through its command line and HTTP.
// The bootstrap host example, which needs a dedicated-server world of its
// own (an SSH farm and a first-boot server), runs in process against
// acctest.Metal instead. The guides' configurations (examples/guides) run
// through guides_test.go, each as its case in guide_cases_test.go says.
package examples_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// emulatorToken is the API token the emulators accept; the examples read it
// through env://HCLOUD_TOKEN.
const emulatorToken = "demo-token"

// robotUser and robotPassword are the Robot webservice's credentials, which
// the examples read through env://ROBOT_USER and env://ROBOT_PASSWORD: the
// ones acctest.Metal's emulator accepts, given to the standalone emulator
// too, so every example keeps its own references.
const (
	robotUser     = acctest.RobotUser
	robotPassword = acctest.RobotPassword
)

// proxmoxToken is the Proxmox VE API token the standalone emulator
// accepts by default, which the examples read through
// env://PROXMOX_API_TOKEN.
const proxmoxToken = "root@pam!demo=demo-proxmox-secret"

// appToken is the bootstrap example's secret file (env://APP_TOKEN), fresh
// per run.
var appToken = "example-app-token-" + strconv.FormatInt(time.Now().UnixNano(), 36)

// hostSecret is the content of the quick start's secret file
// (env://QUICKSTART_HOST_TOKEN), fresh per run so that finding it outside
// the installed disk proves a leak.
var hostSecret = "quickstart-secret-" + strconv.FormatInt(time.Now().UnixNano(), 36)

// realEndpoint is the Hetzner Cloud API URL that import.sh examples spell out
// inside account ids; tests swap in the emulator's.
const realEndpoint = "https://api.hetzner.cloud/v1"

// emulatorBin is the emulator command built once by TestMain.
var emulatorBin string

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	scratch, err := os.MkdirTemp("", "compute-examples-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "examples: cannot create a scratch directory:", err)
		return 1
	}
	defer os.RemoveAll(scratch)

	// terraform-plugin-testing would download terraform when none is on PATH;
	// this machine has no way out, so say what is missing instead. The
	// provider is reattached under the host of the binary that runs.
	tf, err := acctest.Binary()
	if err != nil {
		fmt.Fprintln(os.Stderr, "examples:", err)
		return 1
	}
	os.Setenv(acctest.TerraformPathEnv, tf)

	// A throw-away CLI configuration: the user's own may hold credentials,
	// mirrors or plugin caches that would change what these tests do.
	rc := filepath.Join(scratch, "terraformrc")
	if err := os.WriteFile(rc, nil, 0o600); err != nil {
		fmt.Fprintln(os.Stderr, "examples:", err)
		return 1
	}
	for k, v := range map[string]string{
		"TF_CLI_CONFIG_FILE": rc,
		"CHECKPOINT_DISABLE": "1",
		// The examples require seedcompute/compute; reattach the in-process
		// provider under that address rather than hashicorp/compute.
		"TF_ACC_PROVIDER_NAMESPACE": "seedcompute",
		// The provider runs in this process and resolves env:// here.
		"HCLOUD_TOKEN":          emulatorToken,
		"ROBOT_USER":            robotUser,
		"ROBOT_PASSWORD":        robotPassword,
		"QUICKSTART_HOST_TOKEN": hostSecret,
		"APP_TOKEN":             appToken,
		"PROXMOX_API_TOKEN":     proxmoxToken,
		// The names the guides use, those of the official providers.
		"PROXMOX_VE_API_TOKEN":   proxmoxToken,
		"HETZNER_ROBOT_USER":     robotUser,
		"HETZNER_ROBOT_PASSWORD": robotPassword,
	} {
		os.Setenv(k, v)
	}
	os.Unsetenv("TF_PLUGIN_CACHE_DIR")
	if err := acctest.SetProviderHostFor(tf); err != nil {
		fmt.Fprintln(os.Stderr, "examples:", err)
		return 1
	}

	emulatorBin = filepath.Join(scratch, "compute-emulator")
	// go test puts its own GOROOT/bin first on PATH, so this is the same go.
	build := exec.Command("go", "build", "-o", emulatorBin, "../tools/emulator")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "examples: building ../tools/emulator failed:", err)
		return 1
	}
	return m.Run()
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// providers serves the provider from this process.
func providers() map[string]func() (tfprotov6.ProviderServer, error) {
	return map[string]func() (tfprotov6.ProviderServer, error){
		"compute": providerserver.NewProtocol6WithError(provider.New("test")()),
	}
}

// emulator is one running tools/emulator process.
type emulator struct {
	// hcloud is the Hetzner Cloud API base URL, e.g. http://127.0.0.1:43123/v1.
	hcloud string
	// base is scheme and host, where /_emulator/stats lives.
	base string
	// robot is the Robot webservice's URL, robotSSHPort its servers' SSH
	// port, sshKey the fingerprint of the account's key, whose private
	// half is in sshKeyFile.
	robot        string
	robotSSHPort string
	sshKey       string
	sshKeyFile   string
	// firstBootURL serves a first-boot binary of digest firstBootSHA256.
	firstBootURL    string
	firstBootSHA256 string
	// pve is the Proxmox VE API's endpoint, pveFingerprint its
	// certificate's SHA-256 (an account's tls_fingerprint).
	pve            string
	pveFingerprint string
}

// startEmulator runs a fresh emulator for one test and stops it when the test
// ends.
func startEmulator(t *testing.T) *emulator {
	t.Helper()
	keyFile := filepath.Join(t.TempDir(), "robot_ed25519")
	cmd := exec.Command(emulatorBin, "-listen", "127.0.0.1:0", "-token", emulatorToken,
		"-robot-user", robotUser, "-robot-password", robotPassword, "-robot-ssh-key-out", keyFile)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting the emulator: %v", err)
	}
	exited := make(chan struct{})
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	})

	// The lines it prints once it listens, by their first word; the
	// first-boot line is the last of them.
	found := make(chan map[string][]string, 1)
	go func() {
		defer close(exited)
		lines := map[string][]string{}
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if f := strings.Fields(sc.Text()); len(f) > 1 {
				lines[f[0]] = f[1:]
				if f[0] == "first-boot" {
					found <- lines
				}
			}
		}
		_ = cmd.Wait()
	}()
	select {
	case lines := <-found:
		u := lines["hcloud"]
		if len(u) == 0 || len(lines["robot"]) == 0 || len(lines["robot-ssh"]) == 0 || len(lines["robot-ssh-key"]) != 2 ||
			len(lines["proxmox"]) != 2 || len(lines["first-boot"]) != 2 {
			t.Fatalf("the emulator announced %v, want hcloud, robot, robot-ssh, robot-ssh-key, proxmox and first-boot lines", lines)
		}
		p, err := url.Parse(u[0])
		if err != nil || p.Host == "" {
			t.Fatalf("the emulator announced %q, which is not a URL", u[0])
		}
		return &emulator{
			hcloud: u[0], base: p.Scheme + "://" + p.Host,
			robot: lines["robot"][0], robotSSHPort: lines["robot-ssh"][0],
			sshKey: lines["robot-ssh-key"][0], sshKeyFile: lines["robot-ssh-key"][1],
			firstBootURL: lines["first-boot"][0], firstBootSHA256: lines["first-boot"][1],
			pve: lines["proxmox"][0], pveFingerprint: lines["proxmox"][1],
		}
	case <-exited:
		t.Fatalf("the emulator exited before announcing its URLs; stderr:\n%s", stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("the emulator announced no first-boot line within 30s; stderr:\n%s", stderr.String())
	}
	return nil
}

// serverNames lists the servers the emulated project holds.
func (e *emulator) serverNames(ctx context.Context) ([]string, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, e.hcloud+"/servers?per_page=50", nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+emulatorToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET /servers answered %s", resp.Status)
	}
	var body struct {
		Servers []struct {
			Name string `json:"name"`
		} `json:"servers"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
		return nil, fmt.Errorf("GET /servers: %v", err)
	}
	names := make([]string, len(body.Servers))
	for i, s := range body.Servers {
		names[i] = s.Name
	}
	return names, nil
}

// stats returns the emulator's request counts by route.
func (e *emulator) stats(t *testing.T) map[string]int {
	t.Helper()
	resp, err := http.Get(e.base + "/_emulator/stats")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out := map[string]int{}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("GET /_emulator/stats: %v", err)
	}
	return out
}

// pveStats returns the Proxmox VE emulator's request counts by route.
func (e *emulator) pveStats(t *testing.T) map[string]int {
	t.Helper()
	out := map[string]int{}
	if err := e.getJSON(context.Background(), "/_emulator/proxmox/stats", &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// resetStats sets the emulator's request counts to zero.
func (e *emulator) resetStats(t *testing.T) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodDelete, e.base+"/_emulator/stats", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
}

// checkNoServers is a CheckDestroy that asks the emulator, not the state.
func (e *emulator) checkNoServers(*terraform.State) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	names, err := e.serverNames(ctx)
	if err != nil {
		return err
	}
	if len(names) > 0 {
		return fmt.Errorf("the emulator still holds servers after destroy: %v", names)
	}
	return nil
}

// readExample returns an example file's text.
func readExample(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.FromSlash(rel))
	if err != nil {
		t.Fatalf("reading example: %v", err)
	}
	return string(b)
}

var (
	hetznerCloudBlock = regexp.MustCompile(`(?m)^([ \t]*)hetzner_cloud[ \t]*=[ \t]*\{[ \t]*$`)
	// proxmoxBlock is a proxmox block up to the first line that is a
	// closing brace alone: its own, as long as nothing nested in it spans
	// lines but a jsonencode({...}), which closes with "})".
	proxmoxBlock = regexp.MustCompile(`(?ms)^[ \t]*proxmox[ \t]*=[ \t]*\{[ \t]*$.*?^[ \t]*\}[ \t]*$`)
	// The example's PVE endpoint and pin, which are a reader's and not the
	// emulator's.
	pveEndpoint    = regexp.MustCompile(`(?m)^([ \t]*endpoint[ \t]*=[ \t]*)"https://[^"]+"`)
	pveFingerprint = regexp.MustCompile(`(?m)^([ \t]*tls_fingerprint[ \t]*=[ \t]*)"[0-9A-Fa-f:]+"`)
)

// pointAtEmulator adds `endpoint = "<emulator>"` to every hetzner_cloud block
// of an example, swaps the endpoint and tls_fingerprint of every proxmox
// block for the emulator's, and declares the provider's source when the
// example leaves it out (documentation examples show only what a reader
// needs). It fails the test when the example has no account, so a test
// meant for one cannot silently run against nothing.
func pointAtEmulator(t *testing.T, hcl string, e *emulator) string {
	t.Helper()
	if !hetznerCloudBlock.MatchString(hcl) && !proxmoxBlock.MatchString(hcl) {
		t.Fatalf("the example declares no hetzner_cloud or proxmox account to point at the emulator")
	}
	hcl = hetznerCloudBlock.ReplaceAllString(hcl, fmt.Sprintf("${0}\n${1}  endpoint = %q", e.hcloud))
	hcl = proxmoxBlock.ReplaceAllStringFunc(hcl, func(block string) string {
		if !pveEndpoint.MatchString(block) || !pveFingerprint.MatchString(block) {
			t.Fatalf("a proxmox block of the example sets no https endpoint or no tls_fingerprint to swap for the emulator's:\n%s", block)
		}
		block = pveEndpoint.ReplaceAllString(block, fmt.Sprintf("${1}%q", e.pve))
		return pveFingerprint.ReplaceAllString(block, fmt.Sprintf("${1}%q", e.pveFingerprint))
	})
	return withSource(hcl)
}

// withSource declares seedcompute/compute when a configuration does not.
func withSource(hcl string) string {
	if strings.Contains(hcl, "required_providers") {
		return hcl
	}
	return `terraform {
  required_providers {
    compute = {
      source = "seedcompute/compute"
    }
  }
}

` + hcl
}

// importCommandID returns the id given to `terraform import` in an import.sh
// example, with the real API endpoint swapped for the emulator's.
func importCommandID(t *testing.T, rel string, e *emulator) (address, id string) {
	t.Helper()
	re := regexp.MustCompile(`(?m)^terraform import (\S+) '([^']+)'\s*$`)
	m := re.FindStringSubmatch(readExample(t, rel))
	if m == nil {
		t.Fatalf("%s has no line `terraform import ADDRESS 'ID'`", rel)
	}
	return m[1], strings.ReplaceAll(m[2], realEndpoint, e.hcloud)
}

// lazyString is a Terraform variable whose value is read when the step runs,
// for values that an earlier step of the same test discovers.
type lazyString struct{ value *string }

func (l lazyString) MarshalJSON() ([]byte, error) { return json.Marshal(*l.value) }
