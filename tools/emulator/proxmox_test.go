package main

import (
	"bufio"
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pkg/sftp"
	"golang.org/x/crypto/ssh"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/proxmox"
)

// TestRunServesProxmox: the proxmox lines name an https endpoint whose
// certificate has the printed fingerprint, the token it accepts, and
// nodes whose SSH admits the written key under the printed host keys.
func TestRunServesProxmox(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	r, w := io.Pipe()
	done := make(chan error, 1)
	keyFile := filepath.Join(t.TempDir(), "pve_ed25519")
	go func() {
		done <- run(ctx, []string{"-proxmox-token", "ops@pve!tf=s3cret", "-proxmox-ssh-key-out", keyFile}, w)
		w.Close()
	}()
	defer func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("run: %v", err)
		}
	}()
	lines := map[string][]string{}
	br := bufio.NewReader(r)
	for lines["first-boot"] == nil {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		f := strings.Fields(line)
		lines[f[0]] = f[1:]
	}
	go func() { _, _ = io.Copy(io.Discard, r) }()
	if len(lines["proxmox"]) != 2 || !strings.HasPrefix(lines["proxmox"][0], "https://127.0.0.1:") {
		t.Fatalf("printed %v, want \"proxmox https://127.0.0.1:PORT FINGERPRINT\"", lines)
	}
	if got := lines["proxmox-token"]; !slices.Equal(got, []string{"ops@pve!tf=s3cret"}) {
		t.Fatalf("proxmox-token %v", got)
	}
	endpoint, pin := lines["proxmox"][0], lines["proxmox"][1]
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{
		InsecureSkipVerify: true,
		VerifyConnection: func(cs tls.ConnectionState) error {
			if got := proxmox.Fingerprint(cs.PeerCertificates[0].Raw); got != pin {
				return fmt.Errorf("certificate %s, printed %s", got, pin)
			}
			return nil
		},
	}}}
	get := func(token string) int {
		req, _ := http.NewRequestWithContext(ctx, "GET", endpoint+"/api2/json/version", nil)
		if token != "" {
			req.Header.Set("Authorization", "PVEAPIToken="+token)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if got := get("ops@pve!tf=s3cret"); got != 200 {
		t.Fatalf("with the printed token: %d", got)
	}
	if got := get("ops@pve!tf=wrong"); got != 401 {
		t.Fatalf("with a wrong secret: %d", got)
	}
	key, err := os.ReadFile(keyFile)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := ssh.ParsePrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	if fp := ssh.FingerprintSHA256(signer.PublicKey()); !slices.Equal(lines["proxmox-ssh-key"], []string{fp, keyFile}) {
		t.Fatalf("proxmox-ssh-key %v, the file's key is %s", lines["proxmox-ssh-key"], fp)
	}
	pins := strings.Split(lines["proxmox-ssh-hostkeys"][0], ",")
	if len(pins) != 2 {
		t.Fatalf("proxmox-ssh-hostkeys %v: want one per node", pins)
	}
	// The control API is on the shared port; it tells the nodes' addresses.
	hcloudURL := strings.TrimSuffix(lines["hcloud"][0], "/v1")
	resp, err := http.Get(hcloudURL + "/_emulator/proxmox/vms")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("control API on the shared port: %v %v", resp, err)
	}
	resp.Body.Close()
	var addrs []string
	req, _ := http.NewRequestWithContext(ctx, "GET", endpoint+"/api2/json/cluster/status", nil)
	req.Header.Set("Authorization", "PVEAPIToken=ops@pve!tf=s3cret")
	if resp, err := client.Do(req); err == nil {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		for _, part := range strings.Split(string(b), `"ip":"`)[1:] {
			ip, _, _ := strings.Cut(part, `"`)
			addrs = append(addrs, ip)
		}
	}
	if len(addrs) != 2 {
		t.Fatalf("cluster/status ips %v", addrs)
	}
	cfg := &ssh.ClientConfig{User: "root", Auth: []ssh.AuthMethod{ssh.PublicKeys(signer)},
		HostKeyCallback: func(_ string, _ net.Addr, k ssh.PublicKey) error {
			if !slices.Contains(pins, ssh.FingerprintSHA256(k)) {
				return errors.New("host key not among the printed pins")
			}
			return nil
		}}
	c, err := ssh.Dial("tcp", net.JoinHostPort(addrs[0], lines["proxmox-ssh"][0]), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sc, err := sftp.NewClient(c)
	if err != nil {
		t.Fatal(err)
	}
	defer sc.Close()
	if _, err := sc.ReadDir("/var/lib/vz/snippets"); err != nil {
		t.Fatal(err)
	}
}

func TestProxmoxTokenFlagShape(t *testing.T) {
	var out strings.Builder
	err := run(context.Background(), []string{"-proxmox-token", "no-shape-secretvalue"}, &out)
	if err == nil || !strings.Contains(err.Error(), "USER@REALM!TOKENID=SECRET") || strings.Contains(err.Error(), "secretvalue") {
		t.Fatalf("a token without its shape: %v", err)
	}
}
