package acctest

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/terraform"

	pveemu "github.com/seedcompute/terraform-provider-compute/internal/emulator/proxmox"
)

// The API token of every Proxmox world; the secret doubles as a sentinel
// that no log, state, plan or diagnostic may hold.
const (
	ProxmoxTokenID = "terraform@pve!tf"
	ProxmoxSecret  = "SENTINEL-pve-token-0d4c5e"
)

// ProxmoxTemplate is the template every Proxmox world clones from.
const ProxmoxTemplate = "ubuntu-24.04-cloud"

// Proxmox is one test's Proxmox VE cluster, wired as tools/emulator wires
// it: the PVE API emulator over TLS on 127.0.0.1 with a certificate made at
// start, pinned by its fingerprint (tls_fingerprint), two nodes and one
// template. The token reaches the account through the provider block's
// secrets, read from a file in a directory of the test's own, so tests
// using Proxmox may run in parallel.
type Proxmox struct {
	PVE *pveemu.Emulator
	// Endpoint is the API's base URL (without /api2/json), as the
	// account's endpoint; Fingerprint the certificate's SHA-256.
	Endpoint, Fingerprint string

	dir  string
	stop func()
}

// NewProxmox starts the emulator for one test and stops it with it; opts
// changes its options (clone duration, nodes) before it starts. Like
// NewEmulator it needs the in-process target.
func NewProxmox(t testing.TB, opts ...func(*pveemu.Options)) *Proxmox {
	t.Helper()
	if selection.kind != InProcess {
		t.Skipf("needs the in-process Proxmox emulator; this run's target is %s", selection.kind)
	}
	dir := t.TempDir()
	// Guests boot at once: a process does not ask an agent that was silent
	// again for 30 s of wall time, which FastClock cannot shorten, so a
	// create that read the agent before the guest booted would wait that
	// long for its address.
	o := pveemu.Options{Tokens: map[string]string{ProxmoxTokenID: ProxmoxSecret}, BootDuration: time.Millisecond}
	for _, f := range opts {
		f(&o)
	}
	e, endpoint, stop, err := pveemu.NewServer(context.Background(), o)
	if err != nil {
		t.Fatalf("start Proxmox emulator: %v", err)
	}
	t.Cleanup(stop)
	p := &Proxmox{PVE: e, Endpoint: endpoint, Fingerprint: e.CertFingerprint(), dir: dir, stop: stop}
	if err := os.WriteFile(p.TokenFile(), []byte(ProxmoxTokenID+"="+ProxmoxSecret), 0o600); err != nil {
		t.Fatal(err)
	}
	key, _ := e.SSHClientKey()
	if err := os.WriteFile(p.sshKeyFile(), key, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// Stop closes the API's port before the test ends, as a cluster that went
// down: every later connection to the endpoint is refused.
func (p *Proxmox) Stop() { p.stop() }

// TokenFile holds the API token line, USER@REALM!TOKENID=SECRET.
func (p *Proxmox) TokenFile() string { return filepath.Join(p.dir, "token") }

// ProxmoxFlavors is the account's flavors setting in every Proxmox world.
const ProxmoxFlavors = `jsonencode({
      small = { cores = 2, memory_mib = 2048, disk_gib = 20 }
      large = { cores = 8, memory_mib = 16384, disk_gib = 80 }
    })`

// Provider is the provider block that hands the account its token, as the
// secret pve_token (provider://pve_token), and the nodes' SSH key, as
// pve_ssh (see Snippets).
func (p *Proxmox) Provider() string {
	return fmt.Sprintf(`
provider "compute" {
  secrets = {
    pve_token = trimspace(file(%q))
    pve_ssh   = file(%q)
  }
}
`, p.TokenFile(), p.sshKeyFile())
}

// Account is the provider block and a compute_provider_account "pve" on
// this cluster, pinned to its certificate, with extra lines
// (node = "pve2", say) in its block.
func (p *Proxmox) Account(extra ...string) string {
	return p.Provider() + p.AccountOnly(extra...)
}

// AccountOnly is Account without the provider block, for configurations
// that write their own.
func (p *Proxmox) AccountOnly(extra ...string) string {
	return p.AccountNamed("pve", extra...)
}

// AccountNamed is AccountOnly under another resource name and account
// name, for configurations that hold several clusters under one provider
// block (every cluster takes the same token).
func (p *Proxmox) AccountNamed(name string, extra ...string) string {
	return fmt.Sprintf(`
resource "compute_provider_account" %[1]q {
  name = %[1]q
  proxmox = {
    endpoint        = %q
    api_token       = "provider://pve_token"
    tls_fingerprint = %q
    flavors         = %s
    %s
  }
}
`, name, p.Endpoint, p.Fingerprint, ProxmoxFlavors, strings.Join(extra, "\n    "))
}

// Instance is a compute_instance "NAME" of flavor small from the template,
// with extra lines.
func (p *Proxmox) Instance(name string, extra ...string) string {
	return InstanceBlock{Resource: name, Account: "pve", Name: name, Offer: "small", Image: ProxmoxTemplate}.HCL(extra...)
}

// Machines are the VMs that are not templates.
func (p *Proxmox) Machines() []pveemu.VMInfo {
	var out []pveemu.VMInfo
	for _, v := range p.PVE.VMs() {
		if !v.Template {
			out = append(out, v)
		}
	}
	return out
}

// Named is the VM named name.
func (p *Proxmox) Named(name string) (pveemu.VMInfo, bool) {
	for _, v := range p.Machines() {
		if v.Config["name"] == name {
			return v, true
		}
	}
	return pveemu.VMInfo{}, false
}

// Requests is how many requests reached route (METHOD /path with PVE's
// placeholders, as the emulator counts them).
func (p *Proxmox) Requests(route string) int { return p.PVE.Stats()[route] }

// CheckDestroy asks the emulator whether every VM but the templates is
// gone.
func (p *Proxmox) CheckDestroy(*terraform.State) error {
	if left := p.Machines(); len(left) > 0 {
		var names []string
		for _, v := range left {
			names = append(names, strconv.Itoa(v.VMID)+" ("+v.Config["name"]+", "+v.Status+")")
		}
		return fmt.Errorf("VMs remain after destroy: %s", strings.Join(names, ", "))
	}
	return nil
}

// API sends one request to the PVE API with the token, as a user at the
// GUI or with pvesh would, behind the provider's back: form is the body
// (application/x-www-form-urlencoded) or the query of a GET.
func (p *Proxmox) API(t testing.TB, method, path string, form url.Values) {
	t.Helper()
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{
		// The emulator's own certificate, made for this test.
		InsecureSkipVerify: true, //nolint:gosec // loopback, this test's emulator
	}}}
	u := p.Endpoint + pveemu.APIPrefix + path
	var body io.Reader
	if method == http.MethodGet {
		u += "?" + form.Encode()
	} else {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "PVEAPIToken="+ProxmoxTokenID+"="+ProxmoxSecret)
	if body != nil {
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %s", method, path, resp.Status)
	}
}

// SetTags writes a VM's tags through the API, as a user editing them in
// the GUI would: "" removes every tag, the managed one included.
func (p *Proxmox) SetTags(t testing.TB, vmid int, tags string) {
	t.Helper()
	vm, ok := p.PVE.VM(vmid)
	if !ok {
		t.Fatalf("no VM %d", vmid)
	}
	form := url.Values{"tags": {tags}}
	if tags == "" {
		form = url.Values{"delete": {"tags"}}
	}
	p.API(t, http.MethodPut, "/nodes/"+vm.Node+"/qemu/"+strconv.Itoa(vmid)+"/config", form)
}
