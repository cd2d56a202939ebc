package instance_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

const pveUserDataSentinel = "SENTINEL-pve-userdata-71c2ab"

// TestProxmoxSecretsNeverLeak runs apply, refresh, a saved plan and destroy
// of a VM whose user data goes to the node as a snippet over SFTP, with
// TF_LOG=TRACE into a log file, and looks for the API token's secret, every
// line of the nodes' SSH private key and the user data in the log, the
// state, its backup, the plan's JSON and every output. The snippet reached
// the node's storage with mode 0600 and is gone after the destroy.
func TestProxmoxSecretsNeverLeak(t *testing.T) {
	t.Parallel()
	p := acctest.NewProxmox(t)
	c := acctest.NewCLI(t, p.Account(p.Snippets())+p.Instance("secret", `user_data = file("cloud-init.yaml")`))
	userData := "#cloud-config\nruncmd: [echo " + pveUserDataSentinel + "]\n"
	c.Write("cloud-init.yaml", userData)
	logPath := filepath.Join(t.TempDir(), "terraform.log")
	c.Setenv("TF_LOG", "TRACE")
	c.Setenv("TF_LOG_PROVIDER", "TRACE")
	c.Setenv("TF_LOG_PATH", logPath)

	var outputs []string
	run := func(args ...string) { outputs = append(outputs, c.MustRun(args...)) }
	run("apply", "-auto-approve", "-input=false")
	vm, ok := p.Named("secret")
	if !ok || vm.Status != "running" {
		t.Fatalf("the apply made %+v, want VM secret running", vm)
	}
	snippet := "compute-" + strconv.Itoa(vm.VMID) + "-user.yaml"
	data, mode, ok := p.PVE.Snippet(vm.Node, snippet)
	if !ok || string(data) != userData || mode.Perm() != 0o600 {
		t.Fatalf("snippet %s on %s: present %v, mode %o, content %q; want the user data, mode 0600", snippet, vm.Node, ok, mode.Perm(), data)
	}
	if want := "user=local:snippets/" + snippet; vm.Config["cicustom"] != want {
		t.Errorf("VM %d has cicustom %q, want %q", vm.VMID, vm.Config["cicustom"], want)
	}
	run("apply", "-refresh-only", "-auto-approve", "-input=false")
	run("plan", "-input=false", "-out=tfplan")
	run("show", "-json", "tfplan")
	run("show", "-json")
	state := c.Read("terraform.tfstate")
	run("destroy", "-auto-approve", "-input=false")
	if err := p.CheckDestroy(nil); err != nil {
		t.Error(err)
	}
	if _, _, ok := p.PVE.Snippet(vm.Node, snippet); ok {
		t.Errorf("snippet %s outlived its VM on %s", snippet, vm.Node)
	}

	logText, err := os.ReadFile(logPath)
	if err != nil || len(logText) < 10000 {
		t.Fatalf("the TRACE log is missing or too short to prove anything (%d bytes, %v)", len(logText), err)
	}
	// The check proves nothing unless the provider's own TRACE lines, and
	// its requests to PVE, are in the log.
	for _, want := range []string{"provider.terraform-provider-compute:", "tf_rpc=ApplyResourceChange", "/nodes/{node}/qemu/{vmid}/clone"} {
		if !strings.Contains(string(logText), want) {
			t.Fatalf("the log holds no %q: the check would prove nothing", want)
		}
	}
	places := map[string]string{
		"TF_LOG_PATH log":  string(logText),
		"state":            state,
		"state backup":     c.Read("terraform.tfstate.backup"),
		"outputs and JSON": strings.Join(outputs, "\n"),
	}
	if !strings.Contains(state, `"secret"`) || !strings.Contains(places["outputs and JSON"], "planned_values") {
		t.Fatal("the state or the plan JSON does not hold the instance; the check would prove nothing")
	}
	sentinels := append([]string{acctest.ProxmoxSecret, pveUserDataSentinel}, p.SSHKeySentinels()...)
	if len(sentinels) < 3 {
		t.Fatalf("only %d sentinels; the SSH key yielded none", len(sentinels))
	}
	for where, text := range places {
		for _, s := range sentinels {
			if i := strings.Index(text, s); i >= 0 {
				t.Errorf("%s holds the secret %q: …%s…", where, s, text[max(0, i-300):min(len(text), i+100)])
			}
		}
	}
}
