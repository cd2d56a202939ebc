package main

import (
	"bufio"
	"context"
	"crypto/md5"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
)

// startRunLines runs the command with args and returns the lines it printed
// before serving, by their first word, and its root URL.
func startRunLines(t *testing.T, args ...string) (map[string][]string, string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	r, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, args, w)
		w.Close()
	}()
	t.Cleanup(func() {
		stopped(t, cancel, done)
	})
	lines := map[string][]string{}
	br := bufio.NewReader(r)
	for lines["first-boot"] == nil {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("after %v: %v", lines, err)
		}
		f := strings.Fields(line)
		lines[f[0]] = f[1:]
	}
	go func() { _, _ = io.Copy(io.Discard, r) }()
	return lines, strings.TrimSuffix(lines["hcloud"][0], "/v1")
}

func getJSON(t *testing.T, url, user, password string, into any) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	if user != "" {
		req.SetBasicAuth(user, password)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(b, into); resp.StatusCode != http.StatusOK || err != nil {
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, b)
	}
}

// TestRunMakesTheDemoKey: the private key lands in -robot-ssh-key-out,
// readable by its owner only, and the printed fingerprint is its public
// half's as Robot lists it under /key, so an account's ssh_key and
// ssh_private_key match.
func TestRunMakesTheDemoKey(t *testing.T) {
	keyFile := filepath.Join(t.TempDir(), "robot_ed25519")
	// A file that is there already, wider than 0600, is narrowed.
	if err := os.WriteFile(keyFile, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	lines, root := startRunLines(t, "-robot-ssh-key-out", keyFile)
	got := lines["robot-ssh-key"]
	if len(got) != 2 || got[1] != keyFile {
		t.Fatalf("printed robot-ssh-key %v, want FINGERPRINT %s", got, keyFile)
	}
	st, err := os.Stat(keyFile)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v %v, want mode 0600", st.Mode(), err)
	}
	pem, _ := os.ReadFile(keyFile)
	signer, err := ssh.ParsePrivateKey(pem)
	if err != nil {
		t.Fatalf("the key file is not an OpenSSH private key: %v", err)
	}
	sum := md5.Sum(signer.PublicKey().Marshal())
	var hexes []string
	for _, b := range sum {
		hexes = append(hexes, fmt.Sprintf("%02x", b))
	}
	if want := strings.Join(hexes, ":"); got[0] != want {
		t.Errorf("printed fingerprint %s, the key file's public key has %s", got[0], want)
	}
	var keys []struct {
		Key struct{ Fingerprint string } `json:"key"`
	}
	getJSON(t, lines["robot"][0]+"/key", "demo-user", "demo-password", &keys)
	if len(keys) != 1 || keys[0].Key.Fingerprint != got[0] {
		t.Errorf("GET /key lists %+v, want the one key %s", keys, got[0])
	}
	var machines []struct{ Number int }
	getJSON(t, root+"/_emulator/ssh/machines", "", "", &machines)
	if len(machines) != 2 {
		t.Errorf("GET /_emulator/ssh/machines: %+v, want the 2 machines of -robot-servers", machines)
	}
}

// TestRunWithoutKeyFile: with no -robot-ssh-key-out the key is still
// registered, and the line says no file was written.
func TestRunWithoutKeyFile(t *testing.T) {
	lines, _ := startRunLines(t)
	if got := lines["robot-ssh-key"]; len(got) != 2 || got[1] != "-" || len(got[0]) != 47 {
		t.Errorf("printed robot-ssh-key %v, want FINGERPRINT -", got)
	}
}

// TestFileServerTrustsOnlyItsCA: the first-boot binary is served over
// https with the digest printed, to the farm's client; any other client
// refuses the certificate, as a machine's curl would without the CA.
func TestFileServerTrustsOnlyItsCA(t *testing.T) {
	f, err := startFileServer()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if !strings.HasPrefix(f.url, "https://127.0.0.1:") {
		t.Errorf("url %s, want https on 127.0.0.1", f.url)
	}
	resp, err := f.client.Get(f.url)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	sum := sha256.Sum256(body)
	if resp.StatusCode != http.StatusOK || hex.EncodeToString(sum[:]) != f.sha256 || len(body) == 0 {
		t.Errorf("GET %s: %d, %d bytes of sha256 %x, want %s", f.url, resp.StatusCode, len(body), sum, f.sha256)
	}
	resp, err = http.Get(f.url)
	if err == nil {
		_ = resp.Body.Close()
	}
	var unknown x509.UnknownAuthorityError
	if !errors.As(err, &unknown) {
		t.Errorf("a client without the CA got %v, want an unknown authority", err)
	}
}

// TestRunRefusesZeroDurations: a boot or install of no time is a typo,
// not a faster demo.
func TestRunRefusesZeroDurations(t *testing.T) {
	for _, args := range [][]string{{"-robot-boot-duration", "0"}, {"-robot-install-duration", "-1s"}} {
		if _, err := parseFlags(args, io.Discard); err == nil || !strings.Contains(err.Error(), args[0]) {
			t.Errorf("%v: %v, want an error naming %s", args, err, args[0])
		}
	}
}
