package acctest

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	pveemu "github.com/seedcompute/terraform-provider-compute/internal/emulator/proxmox"
)

// sshKeyFile holds the private key the emulated nodes admit for root.
func (p *Proxmox) sshKeyFile() string { return filepath.Join(p.dir, "ssh_key") }

// Snippets are the account lines that turn user data on: snippets on the
// nodes' storage local, written over SFTP as root with the key the nodes
// admit (the provider block's secret pve_ssh), each node's host key pinned
// as the emulator reports it, so no connection trusts on first use.
func (p *Proxmox) Snippets() string {
	var pins []string
	for _, pin := range p.PVE.SSHHostKeys() {
		pins = append(pins, pin)
	}
	// Sorted: the same configuration on every run, so a rerun plans clean.
	slices.Sort(pins)
	return fmt.Sprintf(`snippet_storage = "local"
    ssh_private_key = "provider://pve_ssh"
    ssh_host_keys   = %q
    ssh_port        = "%d"`, strings.Join(pins, ","), p.PVE.SSHPort())
}

// SSHKeySentinels are pieces of the nodes' private key that no log, state
// or plan may hold: every line of its base64 body, each long enough not
// to occur by chance, but the first, which is the same in every OpenSSH
// key ("openssh-key-v1", no cipher).
func (p *Proxmox) SSHKeySentinels() []string {
	key, _ := p.PVE.SSHClientKey()
	var out []string
	for _, line := range strings.Split(string(key), "\n") {
		line = strings.TrimSpace(line)
		if len(line) >= 16 && !strings.HasPrefix(line, "-----") && !strings.HasPrefix(line, "b3BlbnNzaC1rZXktdjE") {
			out = append(out, line)
		}
	}
	return out
}

// RotateCertificate serves the API with a new certificate from now on, as
// pveproxy does after its certificate was renewed (or as a machine in the
// middle would), and returns the new fingerprint; the account's pin still
// names the old one. The listener stays open: closing it and listening
// again on its port lets any process's outgoing connection take the port
// in between.
func (p *Proxmox) RotateCertificate(t testing.TB) string {
	t.Helper()
	cert, err := pveemu.NewCertificate()
	if err != nil {
		t.Fatal(err)
	}
	p.PVE.SetCertificate(cert)
	return cert.Fingerprint
}
