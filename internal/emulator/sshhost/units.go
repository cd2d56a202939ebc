package sshhost

import (
	"fmt"
	"path"
	"slices"
	"strings"
)

const wantsDir = "/etc/systemd/system/multi-user.target.wants"

// runUnitsLocked plays systemd at boot for the units linked in the
// multi-user wants directory, with just enough of a unit file's meaning
// for a oneshot first-boot unit: ConditionPathExists (with "!"),
// ExecStart (fails when its binary is missing or not executable, or the
// FailFirstBoot fault is set) and ExecStartPost (only the
// "install -D -m MODE /dev/null PATH" marker the first-boot unit uses).
//
// States: a unit that ran and succeeded is ActiveState=active
// Result=success; one that failed is failed/exit-code. One skipped on its
// condition reports active/success when an earlier run on this disk
// succeeded (the done marker it guards is that run's), else
// inactive/success, which is what systemd shows for a skipped unit.
func (m *Machine) runUnitsLocked() {
	disk := m.disk.fs
	for _, name := range disk.list(wantsDir) {
		text, err := disk.readFile(path.Join(wantsDir, name))
		if err != nil {
			continue // a dangling link starts nothing
		}
		u := parseUnit(string(text))
		st := m.units[name]
		if st == nil {
			st = &UnitState{Unit: name}
			m.units[name] = st
		}
		if !u.conditionHolds(disk) {
			st.ActiveState, st.Result = "inactive", "success"
			if st.succeeded {
				st.ActiveState = "active"
			}
			continue
		}
		argv := strings.Fields(u.execStart)
		st.Runs = append(st.Runs, argv)
		if len(argv) == 0 || m.faults.failFirstBoot || !executable(disk, argv[0]) {
			st.ActiveState, st.Result = "failed", "exit-code"
			continue
		}
		st.ActiveState, st.Result, st.succeeded = "active", "success", true
		for _, post := range u.execStartPost {
			runMarker(disk, post)
		}
	}
}

type unitFile struct {
	conditions    []string
	execStart     string
	execStartPost []string
}

func parseUnit(text string) unitFile {
	var u unitFile
	for _, line := range strings.Split(text, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		if !ok {
			continue
		}
		switch k {
		case "ConditionPathExists":
			u.conditions = append(u.conditions, v)
		case "ExecStart":
			u.execStart = v
		case "ExecStartPost":
			u.execStartPost = append(u.execStartPost, v)
		}
	}
	return u
}

func (u unitFile) conditionHolds(disk *fsys) bool {
	for _, c := range u.conditions {
		neg := strings.HasPrefix(c, "!")
		_, err := disk.stat(strings.TrimPrefix(c, "!"))
		if exists := err == nil; exists == neg {
			return false
		}
	}
	return true
}

func executable(disk *fsys, bin string) bool {
	n, err := disk.stat(bin)
	return err == nil && !n.dir && n.mode&0o111 != 0
}

// runMarker performs "/usr/bin/install -D -m MODE /dev/null PATH".
func runMarker(disk *fsys, line string) {
	f := strings.Fields(line)
	if len(f) != 6 || path.Base(f[0]) != "install" || f[1] != "-D" || f[2] != "-m" || f[4] != "/dev/null" {
		return
	}
	mode, ok := parseMode(f[3])
	if !ok {
		return
	}
	_ = disk.mkdirAll(path.Dir(f[5]), 0o755)
	_ = disk.writeFile(f[5], nil, mode, false)
}

// FirstBootState reports every unit the installed system started at boot
// since the last install, by name.
func (m *Machine) FirstBootState() []UnitState {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]UnitState, 0, len(m.units))
	for _, st := range m.units {
		c := *st
		c.Runs = slices.Clone(st.Runs)
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b UnitState) int { return strings.Compare(a.Unit, b.Unit) })
	return out
}

func (m *Machine) unitState(name string) (active, result string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if st := m.units[name]; st != nil && st.ActiveState != "" {
		return st.ActiveState, st.Result
	}
	return "inactive", "success" // as systemd shows a unit it never started
}

// cmdSystemctl is systemctl is-active UNIT and systemctl show -p
// ActiveState,Result UNIT.
func cmdSystemctl(sh *shell, io stdio, args []string) int {
	switch {
	case len(args) == 2 && args[0] == "is-active":
		active, _ := sh.sys.m.unitState(args[1])
		fmt.Fprintln(io.out, active)
		if active == "active" {
			return 0
		}
		return 3
	case len(args) == 4 && args[0] == "show" && args[1] == "-p":
		active, result := sh.sys.m.unitState(args[3])
		for _, p := range strings.Split(args[2], ",") {
			switch p {
			case "ActiveState":
				fmt.Fprintf(io.out, "ActiveState=%s\n", active)
			case "Result":
				fmt.Fprintf(io.out, "Result=%s\n", result)
			default:
				return usage(io, "systemctl", args)
			}
		}
		return 0
	}
	return usage(io, "systemctl", args)
}
