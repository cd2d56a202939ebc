package acctest

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"golang.org/x/crypto/ssh"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/metal"
	robotemu "github.com/seedcompute/terraform-provider-compute/internal/emulator/robot"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/sshhost"
)

// The Robot webservice user of every Metal; the password doubles as a
// sentinel that no log, state, plan or record may hold.
const (
	RobotUser     = "robot-user-4711"
	RobotPassword = "SENTINEL-robot-password-6c1e0b"
)

// Metal is one test's dedicated-server world, wired as tools/emulator
// wires it: the Robot webservice emulator on 127.0.0.1, the SSH farm that
// plays its machines' rescue and installed systems, an account key pair
// registered under /key, and an HTTPS server on 127.0.0.1 serving the
// first-boot binary, whose CA the farm's curl trusts. The account's
// secrets are files under the test's temporary directory, read through
// file:// references, so tests using Metal may run in parallel.
type Metal struct {
	Robot *robotemu.Emulator
	Farm  *sshhost.Farm
	// Endpoint is the webservice's base URL, as the account's endpoint.
	Endpoint string
	// KeyFingerprint is the account key as Robot lists it (ssh_key);
	// PrivateKeyPEM its private half.
	KeyFingerprint, PrivateKeyPEM string
	// Binary is what the first-boot URL serves; BinaryURL and BinarySHA256
	// are what first_boot names.
	Binary                  []byte
	BinaryURL, BinarySHA256 string
	// WrongRescueKey, while set, makes the webservice announce WrongKey as
	// every machine's rescue host key, a key no machine has, as a
	// webservice answer tampered with on its way would.
	WrongRescueKey atomic.Bool
	WrongKey       metal.HostKey

	dir  string
	stop func()
}

// NewMetal starts the emulators for one test and stops them with it. Like
// NewEmulator it needs the in-process target.
func NewMetal(t testing.TB) *Metal {
	t.Helper()
	if selection.kind != InProcess {
		t.Skipf("needs the in-process Robot emulator and SSH farm; this run's target is %s", selection.kind)
	}
	dir := t.TempDir()
	m := &Metal{dir: dir, Binary: []byte("#!/bin/true compute first-boot agent\n")}
	pub, _, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	wrong, _ := ssh.NewPublicKey(pub)
	m.WrongKey = metal.HostKey{Type: "ED25519", Size: 256, SHA256: ssh.FingerprintSHA256(wrong), MD5: ssh.FingerprintLegacyMD5(wrong)}
	sum := sha256.Sum256(m.Binary)
	m.BinarySHA256 = hex.EncodeToString(sum[:])
	files := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(m.Binary) }))
	t.Cleanup(files.Close)
	m.BinaryURL = files.URL + "/agent/1.0/agent-linux-amd64"

	farm, err := sshhost.New(sshhost.Options{HTTPClient: files.Client()})
	if err != nil {
		t.Fatalf("start SSH farm: %v", err)
	}
	t.Cleanup(func() { _ = farm.Close() })
	m.Farm = farm
	// Cancelled servers stay listed for the whole test, so a destroy check
	// can read their cancellation back.
	rb, endpoint, stop, err := robotemu.NewServer(context.Background(), robotemu.Options{
		User: RobotUser, Password: RobotPassword, Farm: &keyFarm{Farm: farm, m: m},
		Unlimited: true, CancelDelay: time.Hour,
	})
	if err != nil {
		t.Fatalf("start Robot emulator: %v", err)
	}
	t.Cleanup(stop)
	m.Robot, m.Endpoint, m.stop = rb, endpoint, stop

	var accountPub string
	m.PrivateKeyPEM, accountPub = accountKey(t)
	if m.KeyFingerprint, err = rb.AddKey("terraform", accountPub); err != nil {
		t.Fatal(err)
	}
	for name, v := range map[string]string{"user": RobotUser, "password": RobotPassword, "id_ed25519": m.PrivateKeyPEM} {
		if err := os.WriteFile(filepath.Join(m.dir, name), []byte(v), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return m
}

// Stop closes the webservice's port before the test ends, as a Robot that
// went down: every later connection to the endpoint is refused. The
// machines' SSH stays up.
func (m *Metal) Stop() { m.stop() }

// accountKey is a fresh ed25519 pair: private PEM, public line.
func accountKey(t testing.TB) (string, string) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	sp, err := ssh.NewPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(block)), strings.TrimSpace(string(ssh.MarshalAuthorizedKey(sp)))
}

// SecretRef is the file:// reference of one of the account's secrets:
// "user", "password" or "id_ed25519".
func (m *Metal) SecretRef(name string) string { return "file://" + filepath.Join(m.dir, name) }

// Account is a compute_provider_account "robot" on these emulators, with
// extra lines (allow_order = true, cancel_on_destroy = true) in its block.
func (m *Metal) Account(extra ...string) string {
	return m.AccountNamed("robot", extra...)
}

// AccountNamed is Account under another resource name and account name,
// for configurations that hold several Metals.
func (m *Metal) AccountNamed(name string, extra ...string) string {
	return fmt.Sprintf(`
resource "compute_provider_account" %[1]q {
  name = %[1]q
  hetzner_robot = {
    user            = %q
    password        = %q
    endpoint        = %q
    ssh_key         = %q
    ssh_private_key = %q
    ssh_port        = %d
    %s
  }
}
`, name, m.SecretRef("user"), m.SecretRef("password"), m.Endpoint, m.KeyFingerprint, m.SecretRef("id_ed25519"), m.Farm.SSHPort(),
		strings.Join(extra, "\n    "))
}

// FirstBoot is a first_boot attribute that fetches Binary.
func (m *Metal) FirstBoot() string {
	return fmt.Sprintf(`first_boot = {
    url     = %q
    sha256  = %q
    command = ["/usr/local/bin/agent", "join", "--role=db"]
  }`, m.BinaryURL, m.BinarySHA256)
}

// AddServer rents an unnamed server of product (AX42 when "") behind the
// API's back and returns its number and machine.
func (m *Metal) AddServer(t testing.TB, product string) (int, *sshhost.Machine) {
	t.Helper()
	s, err := m.Robot.AddServer(robotemu.ServerSeed{Product: product})
	if err != nil {
		t.Fatal(err)
	}
	return s.Number, m.Machine(t, s.Number)
}

// Machine is server n's machine in the farm.
func (m *Metal) Machine(t testing.TB, n int) *sshhost.Machine {
	t.Helper()
	mach, ok := m.Farm.Machine(n)
	if !ok {
		t.Fatalf("the farm has no machine %d", n)
	}
	return mach
}

// Server is server n as the webservice lists it.
func (m *Metal) Server(n int) (robotemu.Seeded, bool) {
	for _, s := range m.Robot.Servers() {
		if s.Number == n {
			return s, true
		}
	}
	return robotemu.Seeded{}, false
}

// get reads a webservice path as the account's user, into out.
func (m *Metal) get(path string, out any) error {
	req, err := http.NewRequest(http.MethodGet, m.Endpoint+path, nil)
	if err != nil {
		return err
	}
	req.SetBasicAuth(RobotUser, RobotPassword)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode == http.StatusNotFound {
		return nil
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s answered %s", path, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// Transactions counts the server orders the account placed.
func (m *Metal) Transactions() (int, error) {
	var list []json.RawMessage
	err := m.get("/order/server/transaction", &list)
	return len(list), err
}

// Cancelled reports whether server n's rental is cancelled.
func (m *Metal) Cancelled(n int) (bool, error) {
	var c struct {
		Cancellation struct {
			Cancelled bool `json:"cancelled"`
		} `json:"cancellation"`
	}
	err := m.get(fmt.Sprintf("/server/%d/cancellation", n), &c)
	return c.Cancellation.Cancelled, err
}

// CheckReleased is a CheckDestroy that asks the webservice: server n is
// named name again (what it was called before the claim) and not
// cancelled.
func (m *Metal) CheckReleased(n int, name string) func(*terraform.State) error {
	return func(*terraform.State) error {
		s, ok := m.Server(n)
		if !ok {
			return fmt.Errorf("server %d is gone after a destroy that should only release it", n)
		}
		if s.Name != name {
			return fmt.Errorf("server %d is named %q after destroy, want %q (the claim was not released)", n, s.Name, name)
		}
		if c, err := m.Cancelled(n); err != nil || c {
			return fmt.Errorf("server %d: cancelled %v (%v) after a destroy without cancel_on_destroy", n, c, err)
		}
		return nil
	}
}

// CheckCancelled is a CheckDestroy for cancel_on_destroy: server n's
// rental is cancelled.
func (m *Metal) CheckCancelled(n int) func(*terraform.State) error {
	return func(*terraform.State) error {
		if c, err := m.Cancelled(n); err != nil || !c {
			return fmt.Errorf("server %d: cancelled %v (%v) after a destroy with cancel_on_destroy", n, c, err)
		}
		return nil
	}
}

// InstalledFile reads path on server n's installed system over SSH, as
// root with the account key, pinned to hostKey (the "ssh-ed25519 AAAA…"
// that known_hosts holds): the proof that a file reached the disk.
func (m *Metal) InstalledFile(t testing.TB, n int, hostKey, path string) string {
	t.Helper()
	pin, _, _, _, err := ssh.ParseAuthorizedKey([]byte(hostKey))
	if err != nil {
		t.Fatalf("host key %q: %v", hostKey, err)
	}
	signer, err := ssh.ParsePrivateKey([]byte(m.PrivateKeyPEM))
	if err != nil {
		t.Fatal(err)
	}
	c, err := ssh.Dial("tcp", m.Machine(t, n).SSHAddr(), &ssh.ClientConfig{
		User: "root", Auth: []ssh.AuthMethod{ssh.PublicKeys(signer)}, HostKeyCallback: ssh.FixedHostKey(pin), Timeout: 10 * time.Second,
	})
	if err != nil {
		t.Fatalf("ssh to server %d: %v", n, err)
	}
	defer c.Close()
	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	out, err := s.Output("cat " + path)
	if err != nil {
		t.Fatalf("cat %s on server %d: %v", path, n, err)
	}
	return string(out)
}

// InstalledHostKey is the host key server n answers SSH with now, as an
// authorized_keys line ("ssh-ed25519 AAAA…"); the dial stops at the key.
func (m *Metal) InstalledHostKey(t testing.TB, n int) string {
	t.Helper()
	var got string
	_, _ = ssh.Dial("tcp", m.Machine(t, n).SSHAddr(), &ssh.ClientConfig{User: "root", Timeout: 10 * time.Second,
		HostKeyCallback: func(_ string, _ net.Addr, k ssh.PublicKey) error {
			got = strings.TrimSpace(string(ssh.MarshalAuthorizedKey(k)))
			return errors.New("only the key was wanted")
		}})
	if got == "" {
		t.Fatalf("server %d offered no host key", n)
	}
	return got
}

// keyFarm hands the webservice machines that announce Metal.WrongKey
// while Metal.WrongRescueKey is set.
type keyFarm struct {
	metal.Farm
	m *Metal
}

func (f *keyFarm) Add(number int, spec metal.Spec) (metal.Machine, error) {
	mach, err := f.Farm.Add(number, spec)
	if err != nil {
		return nil, err
	}
	return &keyMachine{Machine: mach, m: f.m}, nil
}

type keyMachine struct {
	metal.Machine
	m *Metal
}

func (k *keyMachine) RescueHostKeys() []metal.HostKey {
	if !k.m.WrongRescueKey.Load() {
		return k.Machine.RescueHostKeys()
	}
	return []metal.HostKey{k.m.WrongKey}
}

// AccountAs is Account with the password reference, the endpoint and
// ssh_port written as given ("" keeps Account's value), for tests that
// change how the account is written.
func (m *Metal) AccountAs(password, endpoint, sshPort string, extra ...string) string {
	a := m.Account(extra...)
	for _, r := range []struct{ setting, was, now string }{
		{"password        = ", fmt.Sprintf("%q", m.SecretRef("password")), fmt.Sprintf("%q", password)},
		{"endpoint        = ", fmt.Sprintf("%q", m.Endpoint), fmt.Sprintf("%q", endpoint)},
		{"ssh_port        = ", fmt.Sprint(m.Farm.SSHPort()), sshPort},
	} {
		if r.now != `""` && r.now != "" {
			a = strings.Replace(a, r.setting+r.was, r.setting+r.now, 1)
		}
	}
	return a
}

// CopySecret writes the secret name under another name and returns the
// reference to the copy: the same secret behind a rotated reference.
func (m *Metal) CopySecret(t testing.TB, name, to string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(m.dir, name))
	if err == nil {
		err = os.WriteFile(filepath.Join(m.dir, to), b, 0o600)
	}
	if err != nil {
		t.Fatal(err)
	}
	return m.SecretRef(to)
}
