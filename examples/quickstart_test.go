package examples_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

// TestQuickstart applies examples/quickstart as `make demo` does, but with the
// provider in process: two servers on the cheapest available offer with at
// least two vCPU, one rented Robot server bootstrapped into a ready host
// with its secret file in no state and no command line, one Proxmox VM
// cloned from the template, running with its agent's address and the
// account's mark, a clean second plan, and after destroy no cloud server
// and no VM left and the Robot server released.
func TestQuickstart(t *testing.T) {
	t.Parallel()
	e := startEmulator(t)
	servers, err := e.robotServers(t.Context())
	if err != nil || len(servers) == 0 {
		t.Fatalf("the Robot emulator rents %v (%v), want a server to bootstrap", servers, err)
	}
	machine := servers[0].Number
	const (
		host = "compute_bootstrap_host.db.0"
		vm   = "compute_instance.vm.0"
	)
	resource.UnitTest(t, resource.TestCase{
		CheckDestroy: func(s *terraform.State) error {
			if err := e.checkNoServers(s); err != nil {
				return err
			}
			if err := e.checkReleased(machine); err != nil {
				return err
			}
			return e.checkNoVMs()
		},
		Steps: []resource.TestStep{{
			// A directory with a provider block takes its providers at step
			// level (terraform-plugin-testing refuses them on the test case).
			ProtoV6ProviderFactories: providers(),
			ConfigDirectory:          config.StaticDirectory(quickstartDir),
			ConfigVariables: config.Variables{
				"hcloud_endpoint": config.StringVariable(e.hcloud),
				"robot": config.ObjectVariable(map[string]config.Variable{
					"machine_id":      config.StringVariable(fmt.Sprint(machine)),
					"endpoint":        config.StringVariable(e.robot),
					"ssh_port":        config.StringVariable(e.robotSSHPort),
					"ssh_key":         config.StringVariable(e.sshKey),
					"ssh_private_key": config.StringVariable("file://" + e.sshKeyFile),
					"first_boot": config.ObjectVariable(map[string]config.Variable{
						"url":    config.StringVariable(e.firstBootURL),
						"sha256": config.StringVariable(e.firstBootSHA256),
					}),
				}),
				"proxmox": config.ObjectVariable(map[string]config.Variable{
					"endpoint":        config.StringVariable(e.pve),
					"tls_fingerprint": config.StringVariable(e.pveFingerprint),
				}),
			},
			Check: resource.ComposeAggregateTestCheckFunc(
				resource.TestCheckResourceAttr("compute_instance.web.0", "name", "quickstart-web-1"),
				resource.TestCheckResourceAttr("compute_instance.web.1", "name", "quickstart-web-2"),
				resource.TestCheckResourceAttr("compute_instance.web.0", "state", "running"),
				resource.TestCheckResourceAttr("compute_instance.web.1", "state", "running"),
				resource.TestCheckResourceAttrPair("compute_instance.web.0", "offer_id", "compute_instance.web.1", "offer_id"),
				resource.TestCheckResourceAttrSet("compute_instance.web.0", "ipv4_address"),
				resource.TestCheckResourceAttrSet("compute_instance.web.1", "ipv4_address"),
				outputLen("servers", 2),
				func(s *terraform.State) error {
					names, err := e.serverNames(t.Context())
					if err != nil {
						return err
					}
					if len(names) != 2 {
						return fmt.Errorf("the emulator holds %d servers, want 2: %v", len(names), names)
					}
					return nil
				},
				resource.TestCheckResourceAttr(host, "phase", "ready"),
				resource.TestCheckResourceAttr(host, "machine_id", fmt.Sprint(machine)),
				resource.TestMatchResourceAttr(host, "known_hosts", knownHostsLine),
				outputLen("host", 3),
				noSecretInState,
				e.checkSecretNotSent(machine),
				resource.TestCheckResourceAttr(vm, "state", "running"),
				resource.TestCheckResourceAttr(vm, "offer_id", "small"),
				resource.TestMatchResourceAttr(vm, "ipv4_address", regexp.MustCompile(`^192\.0\.2\.`)),
				e.checkOneVM,
				outputLen("vm", 5),
			),
		}},
	})
}

// knownHostsLine is a known_hosts line for an installed system's ed25519 key.
var knownHostsLine = regexp.MustCompile(`^127\.[0-9.]+ ssh-ed25519 [A-Za-z0-9+/]+=*$`)

// noSecretInState fails when the secret file's content is in any attribute
// or output of the state.
func noSecretInState(s *terraform.State) error {
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	if strings.Contains(string(b), hostSecret) {
		return fmt.Errorf("the state holds the content of the quick start's secret file")
	}
	return nil
}

// robotServer is a rented server as /_emulator/robot/servers lists it.
type robotServer struct {
	Number int    `json:"server_number"`
	Name   string `json:"server_name"`
}

func (e *emulator) robotServers(ctx context.Context) ([]robotServer, error) {
	var out []robotServer
	return out, e.getJSON(ctx, "/_emulator/robot/servers", &out)
}

func (e *emulator) getJSON(ctx context.Context, path string, into any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, e.base+path, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s answered %s: %s", path, resp.Status, b)
	}
	return json.Unmarshal(b, into)
}

// checkReleased: destroy keeps the rental and gives the server its name
// back (unnamed, as it was rented).
func (e *emulator) checkReleased(machine int) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	servers, err := e.robotServers(ctx)
	if err != nil {
		return err
	}
	for _, s := range servers {
		if s.Number == machine {
			if s.Name != "" {
				return fmt.Errorf("Robot server %d is named %q after destroy, want it released (unnamed)", machine, s.Name)
			}
			return nil
		}
	}
	return fmt.Errorf("Robot server %d is gone after destroy; destroy releases a rented server, never cancels it here", machine)
}

// checkSecretNotSent: the secret file's content reached the machine as
// some command's stdin, of exactly its length, and is in no command line
// the machine received.
func (e *emulator) checkSecretNotSent(machine int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		var commands []struct {
			Line       string `json:"line"`
			StdinBytes int    `json:"stdin_bytes"`
		}
		if err := e.getJSON(context.Background(), fmt.Sprintf("/_emulator/ssh/commands?machine=%d", machine), &commands); err != nil {
			return err
		}
		delivered := false
		for _, c := range commands {
			if strings.Contains(c.Line, hostSecret) {
				return fmt.Errorf("the machine received the secret file's content in a command line")
			}
			if c.StdinBytes == len(hostSecret) && strings.Contains(c.Line, "cat > /root/compute/files/") {
				delivered = true
			}
		}
		if !delivered {
			return fmt.Errorf("no command of the %d the machine received took the secret file's %d bytes on stdin", len(commands), len(hostSecret))
		}
		return nil
	}
}

// pveVM is a VM or template as /_emulator/proxmox/vms lists it.
type pveVM struct {
	VMID     int               `json:"vmid"`
	Status   string            `json:"status"`
	Template bool              `json:"template"`
	Config   map[string]string `json:"config"`
}

// pveMachines lists the emulated cluster's VMs, templates left out.
func (e *emulator) pveMachines(ctx context.Context) ([]pveVM, error) {
	var all, out []pveVM
	if err := e.getJSON(ctx, "/_emulator/proxmox/vms", &all); err != nil {
		return nil, err
	}
	for _, v := range all {
		if !v.Template {
			out = append(out, v)
		}
	}
	return out, nil
}

// checkOneVM: the cluster holds one VM, the quick start's, running, tagged
// as managed, in the account's VMID range.
func (e *emulator) checkOneVM(*terraform.State) error {
	vms, err := e.pveMachines(context.Background())
	if err != nil {
		return err
	}
	if len(vms) != 1 {
		return fmt.Errorf("the Proxmox emulator holds %d VMs, want 1: %+v", len(vms), vms)
	}
	v := vms[0]
	tags := strings.Split(v.Config["tags"], ";")
	if v.Config["name"] != "quickstart-vm" || v.Status != "running" || !slices.Contains(tags, "compute") || v.VMID < 100000 || v.VMID > 199999 {
		return fmt.Errorf("the Proxmox VM is %+v, want quickstart-vm running, tagged compute, with a VMID in 100000..199999", v)
	}
	return nil
}

// checkNoVMs: destroy left no VM, only the template.
func (e *emulator) checkNoVMs() error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	vms, err := e.pveMachines(ctx)
	if err != nil {
		return err
	}
	if len(vms) > 0 {
		return fmt.Errorf("the Proxmox emulator still holds VMs after destroy: %+v", vms)
	}
	return nil
}
