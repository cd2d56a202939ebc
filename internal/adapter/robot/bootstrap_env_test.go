package robot

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/adaptertest"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/metal"
	robotemu "github.com/seedcompute/terraform-provider-compute/internal/emulator/robot"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/sshhost"
)

// metalEnv is the Robot emulator and the SSH farm behind it, wired as
// tools/emulator wires them, with an account on them whose secrets are
// counted and whose log is captured. The farm is wrapped so that a test
// can make the webservice announce another rescue host key than the
// machine has.
type metalEnv struct {
	t       *testing.T
	farm    *sshhost.Farm
	robot   *robotemu.Emulator
	a       *account
	log     *adaptertest.Log
	secrets *countingSecrets
	wrong   *atomic.Bool // announce a foreign rescue host key
	binary  []byte       // the first-boot program the HTTPS server serves
	url     string
	privPEM string
	// onCommand, when set, sees every command the farm finished.
	onCommand atomic.Pointer[func(sshhost.Command)]
}

// The sentinels: secrets of the account and of the delivered files, which
// must appear in no command line, env request, log line or error.
const (
	sentinelFile     = "file-secret-4f1c9a77e2"
	sentinelPassword = "robot-password-8d3e55"
)

func newMetalEnv(t *testing.T) *metalEnv {
	t.Helper()
	return newMetalEnvOn(t, adapter.RealClock{})
}

// newMetalEnvOn is newMetalEnv with the account on clock.
func newMetalEnvOn(t *testing.T, clock adapter.Clock) *metalEnv {
	t.Helper()
	return newMetalEnvWith(t, clock, sshhost.Options{})
}

// newMetalEnvWith is newMetalEnvOn with the farm's clock and boot hook
// taken from farmOpts.
func newMetalEnvWith(t *testing.T, clock adapter.Clock, farmOpts sshhost.Options) *metalEnv {
	t.Helper()
	oldPace := pace
	// start stays seconds long: it is how long a started install may take
	// to write its log before it counts as never started, and a loaded
	// machine (-race, parallel packages) can take that long.
	pace = pacing{poll: 5 * time.Millisecond, maxPoll: 40 * time.Millisecond, probe: 3 * time.Second, start: 6 * time.Second}
	t.Cleanup(func() { pace = oldPace })

	e := &metalEnv{t: t, log: &adaptertest.Log{}, wrong: &atomic.Bool{}, binary: []byte("#!/bin/true first boot agent\n")}
	files := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write(e.binary) }))
	t.Cleanup(files.Close)
	e.url = files.URL + "/agent"

	farm, err := sshhost.New(sshhost.Options{HTTPClient: files.Client(), Clock: farmOpts.Clock, OnBoot: farmOpts.OnBoot, OnCommandDone: func(c sshhost.Command) {
		if f := e.onCommand.Load(); f != nil {
			(*f)(c)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = farm.Close() })
	e.farm = farm
	rb, endpoint, stop, err := robotemu.NewServer(context.Background(), robotemu.Options{
		User: "robot-user", Password: sentinelPassword, Farm: &keyFarm{Farm: farm, wrong: e.wrong}, Unlimited: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	e.robot = rb

	privPEM, pub := newAccountKey(t)
	e.privPEM = privPEM
	fp, err := rb.AddKey("bootstrap", pub)
	if err != nil {
		t.Fatal(err)
	}
	e.secrets = &countingSecrets{inner: adapter.SecretResolver{Provider: map[string]string{
		"robot_user": "robot-user", "robot_password": sentinelPassword, "ssh_key": privPEM, "file": sentinelFile,
	}}}
	d := definition(options{poll: adapter.Backoff{Initial: time.Millisecond, Max: time.Millisecond}, requestTimeout: 5 * time.Second})
	norm, err := d.Normalize(map[string]string{
		"user": "provider://robot_user", "password": "provider://robot_password", "endpoint": endpoint,
		"ssh_key": fp, "ssh_private_key": "provider://ssh_key", "ssh_port": strconv.Itoa(farm.SSHPort()),
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := d.New(norm, adapter.Env{Secrets: e.secrets, Clock: clock, Log: e.log})
	if err != nil {
		t.Fatal(err)
	}
	e.a = a.(*account)
	return e
}

// newAccountKey is the account's SSH key pair: private PEM, public line.
func newAccountKey(t *testing.T) (string, string) {
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

// claim rents a server and claims it for name, as compute_bootstrap_host's
// create does; it returns the id and the machine.
func (e *metalEnv) claim(name string) (string, *sshhost.Machine) {
	e.t.Helper()
	s, err := e.robot.AddServer(robotemu.ServerSeed{})
	if err != nil {
		e.t.Fatal(err)
	}
	m, err := e.a.Create(context.Background(), call(e.a, name), adapter.CreateRequest{Name: name, MachineID: strconv.Itoa(s.Number), Image: "Ubuntu-2404-noble-amd64-base"})
	if err != nil {
		e.t.Fatal(err)
	}
	mach, ok := e.farm.Machine(s.Number)
	if !ok {
		e.t.Fatalf("no machine %d in the farm", s.Number)
	}
	return m.ID, mach
}

// request is a bootstrap with one file by reference, one by value and a
// first boot fetched from the test's HTTPS server.
func (e *metalEnv) request(host string) adapter.BootstrapRequest {
	sum := sha256.Sum256(e.binary)
	return adapter.BootstrapRequest{
		Image: "Ubuntu-2404-noble-amd64-base", Hostname: host, Disks: adapter.DisksAuto,
		Files: []adapter.File{
			{Path: "/etc/agent/token", Mode: "0600", Ref: "provider://file"},
			{Path: "/etc/agent/config.yaml", Mode: "0644", Value: []byte("role: worker\n")},
		},
		FirstBoot: &adapter.FirstBoot{URL: e.url, SHA256: hex.EncodeToString(sum[:]), Command: []string{"/usr/local/bin/agent", "join", "--role=worker"}},
		Timeouts: map[adapter.Phase]time.Duration{
			adapter.PhaseRescue: 20 * time.Second, adapter.PhaseIdentifying: 20 * time.Second, adapter.PhaseInstalling: 30 * time.Second,
			adapter.PhaseRebooting: 20 * time.Second, adapter.PhaseReady: 20 * time.Second,
		},
	}
}

// recorder collects the phases report sees.
type recorder struct {
	mu     sync.Mutex
	phases []adapter.Phase
	// onPhase, when set, runs on each report (a test cancels there).
	onPhase func(adapter.Progress)
}

func (r *recorder) report(p adapter.Progress) {
	r.mu.Lock()
	if n := len(r.phases); n == 0 || r.phases[n-1] != p.Phase {
		r.phases = append(r.phases, p.Phase)
	}
	hook := r.onPhase
	r.mu.Unlock()
	if hook != nil {
		hook(p)
	}
}

func (r *recorder) seen() []adapter.Phase {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]adapter.Phase(nil), r.phases...)
}

// countingSecrets counts resolutions by reference.
type countingSecrets struct {
	inner adapter.Secrets
	mu    sync.Mutex
	n     map[string]int
}

func (c *countingSecrets) Resolve(ctx context.Context, ref string) (string, error) {
	c.mu.Lock()
	if c.n == nil {
		c.n = map[string]int{}
	}
	c.n[ref]++
	c.mu.Unlock()
	return c.inner.Resolve(ctx, ref)
}

func (c *countingSecrets) count(ref string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[ref]
}

// keyFarm hands the webservice machines that, while wrong is set,
// announce a host key the rescue system does not have.
type keyFarm struct {
	metal.Farm
	wrong *atomic.Bool
}

func (f *keyFarm) Add(number int, spec metal.Spec) (metal.Machine, error) {
	m, err := f.Farm.Add(number, spec)
	if err != nil {
		return nil, err
	}
	return &keyMachine{Machine: m, wrong: f.wrong}, nil
}

type keyMachine struct {
	metal.Machine
	wrong *atomic.Bool
}

func (m *keyMachine) RescueHostKeys() []metal.HostKey {
	if !m.wrong.Load() {
		return m.Machine.RescueHostKeys()
	}
	pub, _, _ := ed25519.GenerateKey(rand.Reader)
	k, _ := ssh.NewPublicKey(pub)
	return []metal.HostKey{{Type: "ED25519", Size: 256, SHA256: ssh.FingerprintSHA256(k), MD5: ssh.FingerprintLegacyMD5(k)}}
}

// noSecrets searches everything the bootstrap left behind (the farm's
// command lines and env requests, the log, the errors) for the secrets: a
// file's content by reference and by value, the Robot password and the
// private key.
func (e *metalEnv) noSecrets(errs ...error) {
	e.t.Helper()
	secrets := []string{sentinelFile, sentinelPassword, "role: worker", strings.Split(strings.TrimSpace(e.privPEM), "\n")[1]}
	var texts []string
	for _, c := range e.farm.Commands() {
		texts = append(texts, "command: "+c.Line)
	}
	for _, r := range e.farm.EnvRequests() {
		texts = append(texts, "env: "+r.Name)
	}
	for _, l := range e.log.Lines() {
		texts = append(texts, "log: "+l)
	}
	for _, err := range errs {
		if err != nil {
			texts = append(texts, "error: "+err.Error())
		}
	}
	if len(texts) < 10 {
		e.t.Fatalf("only %d records to search: the search would pass for nothing", len(texts))
	}
	for _, txt := range texts {
		for _, s := range secrets {
			if strings.Contains(txt, s) {
				e.t.Errorf("a secret (%.6s…) leaked into %s", s, txt)
			}
		}
	}
	if env := e.farm.EnvRequests(); len(env) != 0 {
		e.t.Errorf("env requests were made: %+v", env)
	}
}
