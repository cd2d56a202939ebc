package bootstrap_test

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	robotemu "github.com/seedcompute/terraform-provider-compute/internal/emulator/robot"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/sshhost"
)

// robotFarm is the Robot webservice emulator and the SSH farm behind it,
// wired as tools/emulator wires them, for terraform run as a process: the
// provider plugin reaches both over loopback, and the test watches and
// holds them. Its environment variables carry the secrets the account and
// the host's file reference.
type robotFarm struct {
	t        *testing.T
	farm     *sshhost.Farm
	robot    *robotemu.Emulator
	endpoint string
	keyFP    string
	env      map[string]string
	agentURL string
	agentSum string
	gate     *installGate
	// onCommand sees every command the farm finished, before its exit
	// status reaches the client: a hook there holds the client.
	onCommand atomic.Pointer[func(sshhost.Command)]
}

// The farm's timings: short, and the install's unlike any boot, so the
// gate tells an install's wait from a boot's.
const (
	farmBootDelay   = 30 * time.Millisecond
	farmInstallTime = 150 * time.Millisecond
	// holdBound bounds every hold the test places, should the test never
	// release it.
	holdBound = 2 * time.Minute
)

func newRobotFarm(t *testing.T, servers int) *robotFarm {
	t.Helper()
	binary := []byte("#!/bin/true first boot agent\n")
	files := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(binary) }))
	t.Cleanup(files.Close)
	sum := sha256.Sum256(binary)
	f := &robotFarm{t: t, gate: &installGate{}, agentURL: files.URL + "/agent", agentSum: hex.EncodeToString(sum[:])}
	t.Cleanup(f.gate.release)
	farm, err := sshhost.New(sshhost.Options{
		BootDelay: farmBootDelay, InstallDuration: farmInstallTime, Clock: f.gate, HTTPClient: files.Client(),
		OnCommandDone: func(c sshhost.Command) {
			if h := f.onCommand.Load(); h != nil {
				(*h)(c)
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = farm.Close() })
	f.farm = farm
	const user, password = "robot-user", "robot-password-k1-5d2e"
	rb, endpoint, stop, err := robotemu.NewServer(context.Background(), robotemu.Options{User: user, Password: password, Farm: farm, Unlimited: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	f.robot, f.endpoint = rb, endpoint
	priv, pub := accountKey(t)
	if f.keyFP, err = rb.AddKey("bootstrap", pub); err != nil {
		t.Fatal(err)
	}
	for range servers {
		if _, err := rb.AddServer(robotemu.ServerSeed{}); err != nil {
			t.Fatal(err)
		}
	}
	f.env = map[string]string{
		"K1_ROBOT_USER": user, "K1_ROBOT_PASSWORD": password, "K1_ROBOT_SSH_KEY": priv, "K1_AGENT_TOKEN": "agent-token-k1-93ab",
	}
	return f
}

// accountKey is the account's SSH key pair: private PEM, public line.
func accountKey(t *testing.T) (string, string) {
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

// cli is a terraform working directory with the farm's secrets in its
// environment and backend ("" for the local one) in its terraform block.
func (f *robotFarm) cli(backend string) *acctest.CLI {
	c := acctest.NewInitCLI(f.t, backend, "")
	for k, v := range f.env {
		c.Setenv(k, v)
	}
	return c
}

// config is a robot account on the farm and compute_bootstrap_host.db,
// taken from a free AX42 (so a rerun that lost its claim would take
// another), with a secret file and a first boot fetched from the test's
// HTTPS server. The create timeout bounds every apply.
func (f *robotFarm) config() string {
	return fmt.Sprintf(`
resource "compute_provider_account" "robot" {
  name = "robot"
  hetzner_robot = {
    user            = "env://K1_ROBOT_USER"
    password        = "env://K1_ROBOT_PASSWORD"
    endpoint        = %q
    ssh_key         = %q
    ssh_private_key = "env://K1_ROBOT_SSH_KEY"
    ssh_port        = "%d"
  }
}

resource "compute_bootstrap_host" "db" {
  account  = compute_provider_account.robot.id
  hostname = "db-1"
  offer_id = "AX42"
  image    = "Ubuntu-2404-noble-amd64-base"
  files    = [{ path = "/etc/agent/token", secret = "env://K1_AGENT_TOKEN" }]
  first_boot = {
    url     = %q
    sha256  = %q
    command = ["/usr/local/bin/agent", "join"]
  }
  timeouts {
    create = "2m"
  }
}
`, f.endpoint, f.keyFP, f.farm.SSHPort(), f.agentURL, f.agentSum)
}

// claimed returns the servers whose name carries a claim mark.
func (f *robotFarm) claimed() []robotemu.Seeded {
	var out []robotemu.Seeded
	for _, s := range f.robot.Servers() {
		if strings.Contains(s.Name, "~cm~") {
			out = append(out, s)
		}
	}
	return out
}

// claimedMachine is the farm machine of the one claimed server, nil while
// none is claimed.
func (f *robotFarm) claimedMachine() *sshhost.Machine {
	c := f.claimed()
	if len(c) != 1 {
		return nil
	}
	m, _ := f.farm.Machine(c[0].Number)
	return m
}

// noSecrets fails the test when a text holds one of the farm's secrets
// (the Robot password, the delivered file's secret, the private key).
func (f *robotFarm) noSecrets(texts ...string) {
	f.t.Helper()
	secrets := []string{f.env["K1_ROBOT_PASSWORD"], f.env["K1_AGENT_TOKEN"], strings.Split(f.env["K1_ROBOT_SSH_KEY"], "\n")[1]}
	for i, text := range texts {
		for _, s := range secrets {
			if strings.Contains(text, s) {
				f.t.Errorf("text %d (state, killed apply's output, rerun's output) holds a secret (%.6s…)", i, s)
			}
		}
	}
}

// installs counts the installimage runs on every machine of the farm.
func (f *robotFarm) installs() int {
	n := 0
	for _, m := range f.farm.Machines() {
		n += m.Installs()
	}
	return n
}

// watch makes fn see every finished command from now on; nil stops it.
func (f *robotFarm) watch(fn func(sshhost.Command)) {
	if fn == nil {
		f.onCommand.Store(nil)
		return
	}
	f.onCommand.Store(&fn)
}

// holdCommand holds the client of the first command that match accepts:
// the command ran (its effects stay) and its exit status is not sent until
// the returned release is called (or holdBound passed). reached is closed
// when the hold began.
func (f *robotFarm) holdCommand(match func(sshhost.Command) bool) (reached <-chan struct{}, release func()) {
	r, rel := make(chan struct{}), make(chan struct{})
	var once, relOnce sync.Once
	release = func() { relOnce.Do(func() { close(rel) }) }
	f.t.Cleanup(release)
	f.watch(func(c sshhost.Command) {
		if !match(c) {
			return
		}
		held := false
		once.Do(func() { held = true })
		if !held {
			return
		}
		close(r)
		select {
		case <-rel:
		case <-time.After(holdBound):
		}
	})
	return r, release
}

// installGate is the farm's clock: the wall clock, except that while the
// gate is held an install's wait ends only when the gate is released, so a
// test finds installimage running for as long as it needs.
type installGate struct {
	mu   sync.Mutex
	open chan struct{} // nil: not held
}

func (g *installGate) Now() time.Time { return time.Now() }

func (g *installGate) After(d time.Duration) <-chan time.Time {
	g.mu.Lock()
	open := g.open
	g.mu.Unlock()
	if d != farmInstallTime || open == nil {
		return time.After(d)
	}
	ch := make(chan time.Time, 1)
	go func() {
		select {
		case <-open:
		case <-time.After(holdBound):
		}
		ch <- time.Now()
	}()
	return ch
}

// hold makes installs started from now on wait for release.
func (g *installGate) hold() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.open == nil {
		g.open = make(chan struct{})
	}
}

// release ends the installs' wait; later installs take their time.
func (g *installGate) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.open != nil {
		close(g.open)
		g.open = nil
	}
}
