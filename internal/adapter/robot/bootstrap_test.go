package robot

import (
	"context"
	"errors"
	"net"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/robot/install"
)

// TestBootstrapWhole takes a rented server to ready: phases in order, the
// known host key is the installed one, the first-boot unit ran the argv,
// and the capabilities say so.
func TestBootstrapWhole(t *testing.T) {
	e := newMetalEnv(t)
	id, m := e.claim("node1")
	e.robot.ResetStats()
	rec := &recorder{}
	start := time.Now()
	p, err := e.a.Bootstrap(context.Background(), id, e.request("node1"), adapter.Progress{}, rec.report)
	took := time.Since(start)
	if err != nil {
		t.Fatalf("Bootstrap: %v (progress %+v)", err, p)
	}
	want := []adapter.Phase{adapter.PhaseRescue, adapter.PhaseIdentifying, adapter.PhaseInstalling, adapter.PhaseRebooting, adapter.PhaseReady}
	if got := rec.seen(); !slices.Equal(got, want) {
		t.Errorf("phases = %v, want %v", got, want)
	}
	if p.Phase != adapter.PhaseReady || p.ProductUUID == "" || p.RescueHostKey == "" || p.InstallFingerprint == "" {
		t.Errorf("progress = %+v", p)
	}
	if m.Booted() != "installed" || m.Installs() != 1 || m.Armed() {
		t.Errorf("machine: booted %s, installs %d, armed %v", m.Booted(), m.Installs(), m.Armed())
	}
	if got := installedKey(t, m); got != p.HostKey {
		t.Errorf("HostKey = %q, the installed system's is %q", p.HostKey, got)
	}
	units := m.FirstBootState()
	if len(units) != 1 || len(units[0].Runs) != 1 || !slices.Equal(units[0].Runs[0], []string{"/usr/local/bin/agent", "join", "--role=worker"}) {
		t.Errorf("first boot = %+v", units)
	}
	if caps := Definition().Capabilities; !caps.Has(adapter.CapBootstrap) || !caps.Has(adapter.CapIdentify) {
		t.Errorf("capabilities %v lack bootstrap or identify", caps)
	}
	e.noSecrets(err)
	// What the farm cannot show: the generated files, streamed on stdin.
	plan, err := install.Build(e.request("node1"), "nvme0n1 nvme\nnvme1n1 nvme\n", "ssh-ed25519 AAAA account\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Writes) < 5 {
		t.Fatalf("the plan writes %d files; the search wants them all", len(plan.Writes))
	}
	for _, w := range plan.Writes {
		if strings.Contains(w.Content, sentinelFile) || strings.Contains(w.Content, "role: worker") {
			t.Errorf("a file's content reached %s:\n%s", w.Path, w.Content)
		}
	}
	t.Logf("whole bootstrap: %s wall time", took.Round(time.Millisecond))
	t.Logf("Robot requests: %v", e.robot.Stats())
	for _, c := range m.Commands() {
		t.Logf("ssh %-9s exit=%d stdin=%d %s", c.System, c.Exit, c.StdinBytes, c.Line)
	}
}

// installedKey is the public host key the machine's running system
// offers, read by a handshake that stops at the key.
func installedKey(t *testing.T, m interface{ SSHAddr() string }) string {
	t.Helper()
	var got string
	cfg := &ssh.ClientConfig{User: "root", HostKeyCallback: func(_ string, _ net.Addr, k ssh.PublicKey) error {
		got = strings.TrimSpace(string(ssh.MarshalAuthorizedKey(k)))
		return errors.New("stop")
	}}
	_, _ = ssh.Dial("tcp", m.SSHAddr(), cfg)
	if got == "" {
		t.Fatalf("no host key offered at %s", m.SSHAddr())
	}
	return got
}
