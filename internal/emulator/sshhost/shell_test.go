package sshhost

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
)

func rescueClient(t *testing.T) (*harness, *Machine, *ssh.Client) {
	t.Helper()
	h := newHarness(t, Options{})
	m := h.add(1)
	h.rescue(m)
	return h, m, h.dial(m, m.RescueHostKey())
}

func TestQuotingAndChains(t *testing.T) {
	_, _, c := rescueClient(t)
	for _, tc := range []struct {
		line, out string
		status    int
	}{
		{"echo 'a  b'   c", "a  b c\n", 0},
		{"echo 'it'x'is'", "itxis\n", 0},
		{"echo ''", "\n", 0},
		{"echo 'a && b; c > d'", "a && b; c > d\n", 0},
		{`echo "a"`, "", 2},
		{"echo $HOME", "", 2},
		{"echo a | cat", "", 2},
		{"echo `id`", "", 2},
		{"echo 'open", "", 2},
		{"echo a &&", "", 2},
		{"&& echo a", "", 2},
		{"nope && echo not-reached", "", 127},
		{"nope; echo $?", "127\n", 0},
		{"echo x$?", "", 2},
		{"echo a > /tmp/f && echo b >> /tmp/f && cat /tmp/f", "a\nb\n", 0},
		{"cat /nope 2>&1", "cat: /nope: No such file or directory\n", 1},
		{"cat < /dev/null", "", 0},
		{"sh -c 'echo in; nope; echo after'", "in\nafter\n", 0},
		{"echo 'set -eu' > /tmp/s; echo 'echo one' >> /tmp/s; echo nope >> /tmp/s; echo 'echo two' >> /tmp/s; sh /tmp/s", "one\n", 127},
		{"echo '# comment' > /tmp/c; echo 'echo ok' >> /tmp/c; sh /tmp/c", "ok\n", 0},
		{"umask 077 && echo x > /tmp/m && test -s /tmp/m && test -f /tmp/m && test -e /tmp", "", 0},
		{"test -f /tmp", "", 1},
	} {
		r := run(t, c, tc.line, "")
		if r.status != tc.status || (tc.status != 2 && r.out != tc.out) {
			t.Errorf("%s: status %d out %q err %q, want %d %q", tc.line, r.status, r.out, r.err, tc.status, tc.out)
		}
	}
}

func TestUmaskAndModes(t *testing.T) {
	_, m, c := rescueClient(t)
	run(t, c, "umask 077 && mkdir -p /root/d && cat > /root/d/f", "x")
	run(t, c, "cat > /root/g", "y")
	run(t, c, "install -D -m 0640 /root/g /root/deep/er/h", "")
	run(t, c, "umask 077 && cp /root/g /root/d", "")
	for p, want := range map[string]uint32{"/root/d/f": 0o600, "/root/d": 0o700, "/root/g": 0o644, "/root/deep/er/h": 0o640, "/root/d/g": 0o600} {
		n, err := m.sys.root.stat(p)
		if err != nil || uint32(n.mode) != want {
			t.Errorf("%s: %v mode %o, want %o", p, err, n.mode, want)
		}
	}
	if r := run(t, c, "cat > /root/missing/f", "z"); r.status != 2 {
		t.Errorf("redirect into a missing directory: %+v", r)
	}
}

func TestUnknownCommandsAndRequests(t *testing.T) {
	h, m, c := rescueClient(t)
	r := run(t, c, "frobnicate --all", "")
	if r.status != 127 || r.err != "sh: frobnicate: not found\n" {
		t.Fatalf("unknown command: %+v", r)
	}
	if r := run(t, c, "mount /dev/nvme0n1p2 /srv", ""); r.status == 0 {
		t.Fatal("mount outside /mnt")
	}

	s, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.Setenv("JOIN_TOKEN", secret); err == nil {
		t.Fatal("an env request was honoured")
	}
	if err := s.RequestPty("xterm", 80, 24, ssh.TerminalModes{}); err == nil {
		t.Fatal("a pty was granted")
	}
	if err := s.Shell(); err == nil {
		t.Fatal("a shell was granted")
	}
	env := h.farm.EnvRequests()
	if len(env) != 1 || env[0].Name != "JOIN_TOKEN" || env[0].ValueLength != len(secret) || env[0].Machine != m.Number() {
		t.Fatalf("env requests = %+v", env)
	}
}

func TestAuthAdmitsOnlyRootWithArmedKeys(t *testing.T) {
	h, m, _ := rescueClient(t)
	other, _ := newKey(t)
	if _, err := h.dialErr(m, m.RescueHostKey(), "root", other); err == nil {
		t.Fatal("a key rescue was not armed with got in")
	}
	if _, err := h.dialErr(m, m.RescueHostKey(), "admin", h.key); err == nil {
		t.Fatal("a user other than root got in")
	}
	wrongHost, _ := newKey(t)
	if _, err := h.dialErr(m, wrongHost.PublicKey(), "root", h.key); err == nil {
		t.Fatal("the pin did not hold")
	}
	keys := m.RescueHostKeys()
	pub := m.RescueHostKey()
	if len(keys) != 1 || keys[0].Type != "ED25519" || keys[0].Size != 256 ||
		keys[0].SHA256 != ssh.FingerprintSHA256(pub) || keys[0].MD5 != ssh.FingerprintLegacyMD5(pub) ||
		!strings.HasPrefix(keys[0].SHA256, "SHA256:") {
		t.Fatalf("rescue host keys = %+v", keys)
	}
}

func TestRescueFilesystemIsFreshEachBoot(t *testing.T) {
	h, m, c := rescueClient(t)
	run(t, c, "echo x > /root/left-over", "")
	run(t, c, "reboot", "")
	h.fire(bootDelay)
	h.booted("rescue")
	c = h.dial(m, m.RescueHostKey()) // the same rescue host key again
	if r := run(t, c, "test -e /root/left-over", ""); r.status != 1 {
		t.Fatal("a file survived a rescue boot")
	}
	if r := run(t, c, "test -e /root/images/Ubuntu-2404-noble-amd64-base.tar.gz", ""); r.status != 0 {
		t.Fatal("rescue has no images")
	}
}

// TestEachArmingHasItsOwnRescueKey: arming rescue again makes a fresh
// host key, which the next boot into rescue presents (the last one no
// longer passes a pin), and a boot while disarmed starts the disk.
func TestEachArmingHasItsOwnRescueKey(t *testing.T) {
	h, m, _ := rescueClient(t)
	first := m.RescueHostKey()
	m.Disarm()
	if err := m.Reset("hw"); err != nil {
		t.Fatal(err)
	}
	h.fire(bootDelay)
	h.booted("none")
	h.rescue(m)
	second := m.RescueHostKey()
	if bytes.Equal(first.Marshal(), second.Marshal()) {
		t.Fatal("arming rescue again kept the last host key")
	}
	if got := m.RescueHostKeys(); len(got) != 1 || got[0].SHA256 != ssh.FingerprintSHA256(second) {
		t.Errorf("announced %+v, want the new key %s", got, ssh.FingerprintSHA256(second))
	}
	if _, err := h.dialErr(m, first, "root", h.key); err == nil {
		t.Error("the last arming's host key still passed a pin")
	}
	h.dial(m, second)
}

func TestCurlReachesOnlyLoopbackOverHTTPS(t *testing.T) {
	h, url := agentHarness(t)
	m := h.add(1)
	h.rescue(m)
	c := h.dial(m, m.RescueHostKey())
	for _, tc := range []struct {
		url    string
		status int
	}{
		{url, 0},
		{"https://example.com/agent", 6},
		{strings.Replace(url, "https:", "http:", 1), 1},
		{strings.TrimSuffix(url, "agent") + "missing", 22},
	} {
		r := run(t, c, "curl -fsS --proto =https -o /tmp/a "+tc.url, "")
		if r.status != tc.status {
			t.Errorf("%s: %d %s, want %d", tc.url, r.status, r.err, tc.status)
		}
	}
	if r := run(t, c, "cat /tmp/a", ""); r.out != agentBin {
		t.Fatalf("fetched %q", r.out)
	}
}

func TestInstallimageRefusesBadConfigs(t *testing.T) {
	h := newHarness(t, Options{})
	m := h.add(1, "sata")
	h.rescue(m)
	c := h.dial(m, m.RescueHostKey())
	run(t, c, "cat > /root/k", h.pub+"\n")
	good := "DRIVE1 /dev/sda\nPART / ext4 all\nIMAGE /root/images/Ubuntu-2404-noble-amd64-base.tar.gz\n"
	for name, conf := range map[string]string{
		"missing drive": strings.Replace(good, "/dev/sda", "/dev/nvme0n1", 1),
		"unknown image": strings.Replace(good, "Ubuntu-2404", "Windows-11", 1),
		"raid, 1 drive": "SWRAID 1\nSWRAIDLEVEL 1\n" + good,
		"unknown line":  good + "FROB 1\n",
	} {
		run(t, c, "cat > /root/conf", conf)
		r := run(t, c, "installimage -a -c /root/conf -K /root/k", "")
		if r.status != 1 || r.err == "" {
			t.Errorf("%s: %+v", name, r)
		}
		h.commandDone("installimage") // its record, so the run below waits for its own
	}
	h.noTimer()
	if m.Installs() != 0 {
		t.Fatalf("refused runs counted: %d", m.Installs())
	}
	run(t, c, "cat > /root/conf", good)
	// The install is watched on the machine, not through the command's result.
	go func() { _, _ = runErr(c, "installimage -a -c /root/conf -K /root/k", "") }()
	h.fire(installDelay)
	h.commandDone("installimage")
	if r := run(t, c, "mount /dev/sda2 /mnt && cat /mnt/etc/hostname && umount /mnt", ""); r.status != 0 || r.out != "localhost\n" {
		t.Fatalf("mount the sata root: %+v", r)
	}
	if r := run(t, c, "mount /dev/sda1 /mnt", ""); r.status != 32 {
		t.Fatalf("mount of /boot as root: %+v", r)
	}
}
