package proxmox_test

import (
	"errors"
	"fmt"
	"net"
	"os"
	"strconv"
	"testing"

	"github.com/pkg/sftp"
	"golang.org/x/crypto/ssh"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/proxmox"
)

// dialNode connects to a node's SSH with the emulator's client key,
// trusting only the pin the emulator reports for that node.
func dialNode(t *testing.T, h *harness, node string) *ssh.Client {
	t.Helper()
	pemKey, _ := h.e.SSHClientKey()
	signer, err := ssh.ParsePrivateKey(pemKey)
	if err != nil {
		t.Fatal(err)
	}
	pin := h.e.SSHHostKeys()[node]
	cfg := &ssh.ClientConfig{
		User: proxmox.SSHUser, Auth: []ssh.AuthMethod{ssh.PublicKeys(signer)},
		HostKeyCallback: func(_ string, _ net.Addr, key ssh.PublicKey) error {
			if ssh.FingerprintSHA256(key) != pin {
				return fmt.Errorf("host key %s, pinned %s", ssh.FingerprintSHA256(key), pin)
			}
			return nil
		},
	}
	c, err := ssh.Dial("tcp", net.JoinHostPort(h.e.SSHAddr(node), strconv.Itoa(h.e.SSHPort())), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func TestSnippetRoundTripOverSFTP(t *testing.T) {
	h := start(t, proxmox.Options{})
	// The nodes' SSH addresses are what /cluster/status reports.
	for _, n := range h.ok("GET", "/cluster/status").([]any) {
		if n := n.(map[string]any); n["type"] == "node" && n["ip"] != h.e.SSHAddr(n["name"].(string)) {
			t.Fatalf("cluster/status ip %v, SSH on %s", n["ip"], h.e.SSHAddr(n["name"].(string)))
		}
	}
	if pins := h.e.SSHHostKeys(); pins["pve1"] == pins["pve2"] || len(pins) != 2 {
		t.Fatalf("host keys %v: want one per node", pins)
	}
	c, err := sftp.NewClient(dialNode(t, h, "pve2"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	const p = "/var/lib/vz/snippets/compute-100-user.yaml"
	f, err := c.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write([]byte("#cloud-config\nruncmd: [true]\n")); err != nil {
		t.Fatal(err)
	}
	if err := f.Chmod(0o600); err != nil {
		t.Fatal(err)
	}
	f.Close()
	if b, mode, ok := h.e.Snippet("pve2", "compute-100-user.yaml"); !ok || string(b) != "#cloud-config\nruncmd: [true]\n" || mode != 0o600 {
		t.Fatalf("snippet on pve2: %q %v %v", b, mode, ok)
	}
	if _, _, ok := h.e.Snippet("pve1", "compute-100-user.yaml"); ok {
		t.Fatal("a snippet written to pve2 is on pve1")
	}
	list := h.ok("GET", "/nodes/pve2/storage/local/content", "content", "snippets").([]any)
	if len(list) != 1 || list[0].(map[string]any)["volid"] != "local:snippets/compute-100-user.yaml" {
		t.Fatalf("content %v", list)
	}
	st := h.ok("GET", "/storage/local").(map[string]any)
	if st["type"] != "dir" || st["path"] != "/var/lib/vz" {
		t.Fatalf("storage local %v", st)
	}
	if _, err := c.Create("/etc/passwd"); err == nil {
		t.Fatal("a write outside the snippets directory was taken")
	}
	// A start whose cicustom names a snippet fails until it is there.
	if _, err := h.e.AddVM(proxmox.VMSeed{VMID: 100, Node: "pve2"}); err != nil {
		t.Fatal(err)
	}
	h.ok("PUT", "/nodes/pve2/qemu/100/config", "cicustom", "user=local:snippets/compute-100-user.yaml")
	h.mustTask("POST", "/nodes/pve2/qemu/100/status/start")
	h.mustTask("POST", "/nodes/pve2/qemu/100/status/stop")
	if err := c.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := c.Remove(p); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("second remove: %v, want not exist", err)
	}
	if _, exit := h.task("POST", "/nodes/pve2/qemu/100/status/start"); exit != "volume 'local:snippets/compute-100-user.yaml' does not exist" {
		t.Fatalf("start without the snippet ended %q", exit)
	}
}

func TestNodeSSHRefusesOtherKeys(t *testing.T) {
	h := start(t, proxmox.Options{})
	other, err := ssh.NewSignerFromKey(mustEd25519(t))
	if err != nil {
		t.Fatal(err)
	}
	cfg := &ssh.ClientConfig{User: "root", Auth: []ssh.AuthMethod{ssh.PublicKeys(other)}, HostKeyCallback: ssh.InsecureIgnoreHostKey()}
	if _, err := ssh.Dial("tcp", net.JoinHostPort(h.e.SSHAddr("pve1"), strconv.Itoa(h.e.SSHPort())), cfg); err == nil {
		t.Fatal("a key the nodes do not admit got in")
	}
}
