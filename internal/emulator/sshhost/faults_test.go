package sshhost

import (
	"errors"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/crypto/ssh"
)

// install runs the whole rescue part of the flow with script and returns
// the rescue client and the installed host key ("" exit status kept).
func install(t *testing.T, h *harness, m *Machine, url, script string) (*ssh.Client, string) {
	t.Helper()
	c := prepared(t, h, m, url)
	if script != "" {
		run(t, c, "cat > /root/compute/install.sh", script)
	}
	run(t, c, startInstall, "")
	h.fire(installDelay)
	h.commandDone("sh -c")
	return c, run(t, c, "cat /root/compute/install.exit", "").out
}

func TestBootRefusesConnectionsUntilItEnds(t *testing.T) {
	h := newHarness(t, Options{})
	m := h.add(1)
	m.ArmRescue([]string{h.pub})
	if err := m.Reset("hw"); err != nil {
		t.Fatal(err)
	}
	if m.Booted() != "booting" {
		t.Fatalf("booted %q during the boot", m.Booted())
	}
	_, err := h.dialErr(m, m.RescueHostKey(), "root", h.key)
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Fatalf("dial during the boot: %v, want connection refused", err)
	}
	rescued := m.BootedRescue()
	h.fire(bootDelay)
	h.booted("rescue")
	select {
	case <-rescued:
	default:
		t.Fatal("BootedRescue was not closed by the rescue boot")
	}
	h.dial(m, m.RescueHostKey())
}

func TestFailInstallLeavesAnEmptyDisk(t *testing.T) {
	h, url := agentHarness(t)
	m := h.add(1)
	m.FailInstall("disk /dev/nvme1n1 failed its SMART test")
	c, exit := install(t, h, m, url, "")
	if exit != "1\n" {
		t.Fatalf("install.exit = %q, want 1", exit)
	}
	log := run(t, c, "cat /root/compute/install.log", "").out
	lines := strings.Split(strings.TrimSpace(log), "\n")
	if lines[len(lines)-1] != "disk /dev/nvme1n1 failed its SMART test" || !strings.Contains(log, "step: installimage") {
		t.Fatalf("install.log:\n%s", log)
	}
	if strings.Contains(log, "step: mount") {
		t.Fatal("set -eu did not stop the script at the failed install")
	}
	m.Disarm()
	if err := m.Reset("hw"); err != nil {
		t.Fatal(err)
	}
	h.fire(bootDelay)
	h.booted("none")
}

func TestHangInstallRunsUntilTheReset(t *testing.T) {
	h, url := agentHarness(t)
	m := h.add(1)
	m.HangInstall(true)
	c := prepared(t, h, m, url)
	run(t, c, startInstall, "")
	h.await(forever) // the hung install's wait started; it never ends
	if r := run(t, c, "pgrep -x installimage", ""); r.status != 0 || !m.InstallRunning() {
		t.Fatalf("pgrep = %d, InstallRunning = %v", r.status, m.InstallRunning())
	}
	if r := run(t, c, "test -e /root/compute/install.exit", ""); r.status != 1 {
		t.Fatal("a hung install wrote install.exit")
	}
	if err := m.Reset("hw"); err != nil {
		t.Fatal(err)
	}
	h.commandDone("sh -c")
	if m.InstallRunning() || m.Installs() != 1 {
		t.Fatalf("after the reset: running %v, installs %d", m.InstallRunning(), m.Installs())
	}
	if _, err := diskFile(m, "/etc/hostname"); err == nil {
		t.Fatal("a killed install left a system on the disk")
	}
}

func TestSoftReset(t *testing.T) {
	h := newHarness(t, Options{})
	m := h.add(1)
	if err := m.Reset("sw"); err != nil {
		t.Fatalf("sw reset of a machine without a system: %v", err)
	}
	h.noTimer()
	h.rescue(m)
	m.IgnoreSoftReset(true)
	if err := m.Reset("sw"); err != nil {
		t.Fatal(err)
	}
	h.noTimer()
	if m.Booted() != "rescue" {
		t.Fatalf("an ignored sw reset left %q", m.Booted())
	}
	c := h.dial(m, m.RescueHostKey())
	// The system's own reboot does not go through ACPI.
	run(t, c, "reboot", "")
	h.fire(bootDelay)
	h.booted("rescue")
	m.IgnoreSoftReset(false)
	if err := m.Reset("sw"); err != nil {
		t.Fatal(err)
	}
	h.fire(bootDelay)
	h.booted("rescue")
	if err := m.Reset("power"); err != nil || m.Booted() != "off" {
		t.Fatalf("power: %v, %s", err, m.Booted())
	}
	if err := m.Reset("sw"); err == nil {
		t.Fatal("a sw reset of a machine that is off was delivered")
	}
	if err := m.WakeOnLAN(); err != nil {
		t.Fatal(err)
	}
	h.fire(bootDelay)
	h.booted("rescue")
}

func TestFirstBootFailures(t *testing.T) {
	srv, url := agentServer(t)
	for _, tc := range []struct {
		name   string
		fault  bool
		script string
	}{
		{"fault", true, ""},
		{"binary missing", false, strings.Replace(installScript(url), "curl", "echo", 1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, Options{HTTPClient: srv.Client()})
			m := h.add(1)
			m.FailFirstBoot(tc.fault)
			script := tc.script
			if script != "" {
				script = strings.Replace(script, "sha256sum -c /root/compute/first-boot.sha256\n", "", 1)
				script = strings.Replace(script, "chmod 0755 /mnt/usr/local/bin/agent\n", "", 1)
			}
			c, exit := install(t, h, m, url, script)
			if exit != "0\n" {
				t.Fatalf("install.exit %q: %s", exit, run(t, c, "cat /root/compute/install.log", "").out)
			}
			m.Disarm()
			run(t, c, "reboot", "")
			h.fire(bootDelay)
			h.booted("installed")
			st := m.FirstBootState()
			if len(st) != 1 || st[0].ActiveState != "failed" || st[0].Result != "exit-code" || len(st[0].Runs) != 1 {
				t.Fatalf("first boot = %+v", st)
			}
		})
	}
}

func TestSessionDroppedMidInstallDoesNotStopIt(t *testing.T) {
	h, url := agentHarness(t)
	m := h.add(1)
	c := prepared(t, h, m, url)
	m.DropSessionsAfter(1)
	if _, err := runErr(c, startInstall, ""); err == nil {
		t.Fatal("the session was not cut")
	}
	if got := h.commandDone("setsid"); got.Exit != -1 {
		t.Fatalf("the cut command's record says exit %d", got.Exit)
	}
	h.fire(installDelay)
	if got := h.commandDone("sh -c"); got.Exit != 0 || !got.Detached {
		t.Fatalf("detached install: %+v", got)
	}
	c = h.dial(m, m.RescueHostKey())
	if r := run(t, c, "cat /root/compute/install.exit", ""); r.out != "0\n" {
		t.Fatalf("install.exit after the drop = %q", r.out)
	}
	if m.Installs() != 1 {
		t.Fatalf("installs = %d", m.Installs())
	}
}

func TestNonDetachedCommandDiesWithItsSession(t *testing.T) {
	h, url := agentHarness(t)
	m := h.add(1)
	c := prepared(t, h, m, url)
	// An earlier install's system, which the new run wipes at once.
	old := newFS("/etc")
	_ = old.writeFile("/etc/hostname", []byte("old\n"), 0o644, false)
	m.mu.Lock()
	m.disk = disk{fs: old, rootDev: "/dev/md1"}
	m.mu.Unlock()
	// The install is watched on the machine, not through the command's result.
	go func() {
		_, _ = runErr(c, "installimage -a -c /root/compute/install.conf -K /root/compute/authorized_keys", "")
	}()
	tm := h.await(installDelay)
	if !m.InstallRunning() {
		t.Fatal("installimage is not running")
	}
	m.DropNow()
	if got := h.commandDone("installimage"); got.Exit != -1 {
		t.Fatalf("installimage record: %+v", got)
	}
	tm.ch <- h.clock.Now()
	if m.InstallRunning() {
		t.Fatal("installimage outlived its session")
	}
	if _, err := diskFile(m, "/etc/hostname"); err == nil {
		t.Fatal("a killed install wrote the disk")
	}
}
