package sshhost

import "strings"

// faults are a machine's scripted misbehaviours; each stays until cleared.
type faults struct {
	failInstall     string
	hangInstall     bool
	ignoreSoftReset bool
	failFirstBoot   bool
}

// DropSessionsAfter lets n more commands run on the machine and then cuts
// every SSH session right after the nth one ran, before its exit status is
// sent: the client sees a dropped connection for a command whose effects
// happened (detached work goes on; other sessions' commands are killed).
// n <= 0 cuts every session now.
func (m *Machine) DropSessionsAfter(n int) {
	if n <= 0 {
		m.DropNow()
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.dropAfter = n
}

// DropSessionsAfterCommand cuts every SSH session right after the next
// command whose line starts with prefix ran, before its exit status is
// sent, as DropSessionsAfter does for the nth command. Naming the command
// keeps a test on the step it means however many commands come before it,
// and in whatever order concurrent sessions finish theirs.
func (m *Machine) DropSessionsAfterCommand(prefix string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.dropOn = prefix
}

// commandDone counts a finished command against DropSessionsAfter, matches
// it against DropSessionsAfterCommand, and reports whether the sessions are
// to be cut now.
func (m *Machine) commandDone(line string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.dropOn != "" && strings.HasPrefix(line, m.dropOn) {
		m.dropOn = ""
		return true
	}
	if m.dropAfter == 0 {
		return false
	}
	m.dropAfter--
	return m.dropAfter == 0
}

// DropNow cuts every SSH session of the running system, as a network
// blip does; the SSH server stays up.
func (m *Machine) DropNow() {
	m.mu.Lock()
	sys := m.sys
	m.mu.Unlock()
	if sys != nil {
		sys.dropAll()
	}
}

// FailInstall makes every installimage run exit 1 after its duration with
// reason on stderr, leaving the disk wiped; "" clears it.
func (m *Machine) FailInstall(reason string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.faults.failInstall = reason
}

// HangInstall makes installimage runs never end (until the machine is
// reset, or for a non-detached one, its session drops).
func (m *Machine) HangInstall(on bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.faults.hangInstall = on
}

// IgnoreSoftReset makes the running system ignore "sw" resets, as a hung
// OS ignores ACPI; the reboot command still works.
func (m *Machine) IgnoreSoftReset(on bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.faults.ignoreSoftReset = on
}

// FailFirstBoot makes every unit the installed system starts at boot
// fail (ActiveState=failed, Result=exit-code).
func (m *Machine) FailFirstBoot(on bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.faults.failFirstBoot = on
}

// ClearFaults clears every fault, including a pending DropSessionsAfter.
func (m *Machine) ClearFaults() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.faults = faults{}
	m.dropAfter = 0
	m.dropOn = ""
}

// InstallRunning reports whether installimage runs on the machine now.
func (m *Machine) InstallRunning() bool {
	m.mu.Lock()
	sys := m.sys
	m.mu.Unlock()
	return sys != nil && sys.running("installimage")
}

// Installs counts the installimage runs that started writing the disk
// (runs refused for a bad config or image are not counted).
func (m *Machine) Installs() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.installs
}
