package sshhost

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"
)

const (
	secret        = "s3cr3t-join-token-SENTINEL"
	agentBin      = "#!/bin/agent binary"
	firstBootUnit = `[Unit]
Description=compute first boot
Wants=network-online.target
After=network-online.target
ConditionPathExists=!/var/lib/compute/first-boot.done
[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/local/bin/agent join --now
ExecStartPost=/usr/bin/install -D -m 0644 /dev/null /var/lib/compute/first-boot.done
[Install]
WantedBy=multi-user.target
`
	installConf = `DRIVE1 /dev/nvme0n1
DRIVE2 /dev/nvme1n1
SWRAID 1
SWRAIDLEVEL 1
HOSTNAME web-1
PART /boot ext3 1024M
PART / ext4 all
IMAGE /root/images/Ubuntu-2404-noble-amd64-base.tar.gz
`
	startInstall = `setsid -f sh -c 'sh /root/compute/install.sh > /root/compute/install.log 2>&1; echo $? > /root/compute/install.exit' < /dev/null`
)

func installScript(url string) string {
	return `set -eu
# non-secret: paths, modes, URL, digest, argv
echo 'step: installimage'
installimage -a -c /root/compute/install.conf -K /root/compute/authorized_keys
echo 'step: mount'
mount /dev/md1 /mnt
echo 'step: file 0'
install -D -m 0600 /root/compute/files/0 /mnt/etc/agent/join-token
echo 'step: fetch'
curl -fsS --proto =https -o /mnt/usr/local/bin/agent ` + url + `
echo 'step: verify'
sha256sum -c /root/compute/first-boot.sha256
chmod 0755 /mnt/usr/local/bin/agent
echo 'step: unit'
install -D -m 0644 /root/compute/compute-first-boot.service /mnt/etc/systemd/system/compute-first-boot.service
ln -sf /etc/systemd/system/compute-first-boot.service /mnt/etc/systemd/system/multi-user.target.wants/compute-first-boot.service
install -D -m 0644 /root/compute/install.fp /mnt/etc/compute/install
cp /mnt/etc/ssh/ssh_host_ed25519_key.pub /root/compute/host_key.pub
shred -u /root/compute/files/0
umount /mnt
`
}

// agentServer serves the first-boot binary over https on loopback.
func agentServer(t *testing.T) (*httptest.Server, string) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/agent" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, agentBin)
	}))
	t.Cleanup(srv.Close)
	return srv, srv.URL + "/agent"
}

// agentHarness is a harness whose machines fetch the first-boot agent from
// a server of the test, and the agent's URL there.
func agentHarness(t *testing.T) (*harness, string) {
	t.Helper()
	srv, url := agentServer(t)
	return newHarness(t, Options{HTTPClient: srv.Client()}), url
}

// prepared boots m into rescue and writes there what the bootstrap writes
// before it starts the install (prepare), and returns the session.
func prepared(t *testing.T, h *harness, m *Machine, url string) *ssh.Client {
	t.Helper()
	h.rescue(m)
	c := h.dial(m, m.RescueHostKey())
	prepare(t, h, c, url)
	return c
}

// prepare writes what the bootstrap writes in rescue before it starts the
// install: the secret file, the config, the script, the unit and sums.
func prepare(t *testing.T, h *harness, c *ssh.Client, url string) {
	t.Helper()
	sum := sha256.Sum256([]byte(agentBin))
	steps := []struct{ line, stdin string }{
		{"umask 077 && mkdir -p /root/compute/files && cat > /root/compute/files/0", secret},
		{"umask 077 && cat > /root/compute/install.conf", installConf},
		{"umask 077 && cat > /root/compute/authorized_keys", h.pub + "\n"},
		{"umask 077 && cat > /root/compute/install.sh", installScript(url)},
		{"umask 077 && cat > /root/compute/compute-first-boot.service", firstBootUnit},
		{"umask 077 && cat > /root/compute/first-boot.sha256", hex.EncodeToString(sum[:]) + "  /mnt/usr/local/bin/agent\n"},
		{"umask 077 && cat > /root/compute/install.fp", "fp-1234\n"},
	}
	for _, s := range steps {
		if r := run(t, c, s.line, s.stdin); r.status != 0 {
			t.Fatalf("%s: %d %s", s.line, r.status, r.err)
		}
	}
}

func diskFile(m *Machine, p string) (node, error) {
	m.mu.Lock()
	d := m.disk.fs
	m.mu.Unlock()
	if d == nil {
		return node{}, errNotExist
	}
	return d.stat(p)
}

func TestWholeInstallFromRescueToFirstBoot(t *testing.T) {
	h, url := agentHarness(t)
	m := h.add(42)
	if m.Booted() != "none" {
		t.Fatalf("a new machine runs %q, want none", m.Booted())
	}
	h.rescue(m)
	c := h.dial(m, m.RescueHostKey())
	if r := run(t, c, "hostname", ""); r.out != "rescue\n" {
		t.Fatalf("hostname in rescue = %q", r.out)
	}
	if r := run(t, c, "dmidecode -s system-uuid", ""); r.out != "4c4c4544-0031-3310-8052-b2c04f4e3132\n" {
		t.Fatalf("dmidecode = %q", r.out)
	}
	if r := run(t, c, "lsblk -dn -o NAME,TRAN", ""); r.out != "nvme0n1 nvme\nnvme1n1 nvme\n" {
		t.Fatalf("lsblk = %q", r.out)
	}
	prepare(t, h, c, url)
	n, err := m.sys.root.stat("/root/compute/files/0")
	if err != nil || n.mode != 0o600 || string(n.data) != secret {
		t.Fatalf("secret file: %v mode %o", err, n.mode)
	}

	if r := run(t, c, startInstall, ""); r.status != 0 {
		t.Fatalf("start install: %d %s", r.status, r.err)
	}
	installing := h.await(installDelay) // installimage runs once its wait started
	if r := run(t, c, "pgrep -x installimage", ""); r.status != 0 {
		t.Fatalf("pgrep while installing = %d", r.status)
	}
	if r := run(t, c, "cat /root/compute/install.exit", ""); r.status != 1 {
		t.Fatalf("install.exit before the install ended: %+v", r)
	}
	installing.ch <- h.clock.Now()
	h.commandDone("sh -c")
	if r := run(t, c, "cat /root/compute/install.exit", ""); r.out != "0\n" {
		log := run(t, c, "cat /root/compute/install.log", "")
		t.Fatalf("install.exit = %q, log:\n%s", r.out, log.out)
	}
	if r := run(t, c, "pgrep -x installimage", ""); r.status != 1 {
		t.Fatalf("pgrep after the install = %d", r.status)
	}
	if r := run(t, c, "test -e /root/compute/files/0", ""); r.status != 1 {
		t.Fatal("the secret file survived shred -u")
	}
	if tok, err := diskFile(m, "/etc/agent/join-token"); err != nil || string(tok.data) != secret || tok.mode != 0o600 {
		t.Fatalf("installed secret: %v %o", err, tok.mode)
	}
	hk := run(t, c, "cat /root/compute/host_key.pub", "")
	installedKey, _, _, _, err := ssh.ParseAuthorizedKey([]byte(hk.out))
	if err != nil {
		t.Fatalf("host_key.pub %q: %v", hk.out, err)
	}

	m.Disarm()
	if r := run(t, c, "reboot", ""); r.status != 0 {
		t.Fatalf("reboot: %+v", r)
	}
	h.fire(bootDelay)
	h.booted("installed")
	if _, err := h.dialErr(m, m.RescueHostKey(), "root", h.key); err == nil {
		t.Fatal("the installed system answered with the rescue host key")
	}
	ic := h.dial(m, installedKey)
	if r := run(t, ic, "hostname", ""); r.out != "web-1\n" {
		t.Fatalf("installed hostname = %q", r.out)
	}
	want := "ActiveState=active\nResult=success\n"
	if r := run(t, ic, "systemctl show -p ActiveState,Result compute-first-boot.service", ""); r.out != want {
		t.Fatalf("unit state = %q", r.out)
	}
	if r := run(t, ic, "installimage -a -c x -K y", ""); r.status != 127 {
		t.Fatalf("installimage on the installed system = %d", r.status)
	}
	st := m.FirstBootState()
	if len(st) != 1 || len(st[0].Runs) != 1 || strings.Join(st[0].Runs[0], " ") != "/usr/local/bin/agent join --now" {
		t.Fatalf("first boot = %+v", st)
	}

	// The next boot skips the unit on its condition and still reports the
	// earlier success.
	if err := m.Reset("sw"); err != nil {
		t.Fatal(err)
	}
	h.fire(bootDelay)
	h.booted("installed")
	ic = h.dial(m, installedKey)
	if r := run(t, ic, "systemctl is-active compute-first-boot.service", ""); r.out != "active\n" || r.status != 0 {
		t.Fatalf("after a second boot: %+v", r)
	}
	if st := m.FirstBootState(); len(st[0].Runs) != 1 {
		t.Fatalf("the unit ran again: %+v", st)
	}
	if m.Installs() != 1 {
		t.Fatalf("installs = %d", m.Installs())
	}
	assertNoSecret(t, h)
}

// assertNoSecret searches every record for the secret; the stdin counts
// prove the secret went in, so the search cannot pass vacuously.
func assertNoSecret(t *testing.T, h *harness) {
	t.Helper()
	var sawStdin bool
	for _, c := range h.farm.Commands() {
		if strings.Contains(c.Line, secret) {
			t.Fatalf("the secret is in a command record: %q", c.Line)
		}
		if strings.HasSuffix(c.Line, "files/0") && c.StdinBytes == int64(len(secret)) {
			sawStdin = true
		}
	}
	if !sawStdin {
		t.Fatal("no record of the secret's stdin length")
	}
}
