package sshhost

import (
	"fmt"
	"io"
	"strings"
)

// commands is the whole vocabulary; the installed system lacks the
// rescue-only ones.
var commands map[string]func(*shell, stdio, []string) int

var rescueOnly = map[string]bool{"installimage": true, "dmidecode": true, "lsblk": true, "mount": true}

func init() {
	commands = map[string]func(*shell, stdio, []string) int{
		"hostname":     cmdHostname,
		"dmidecode":    cmdDmidecode,
		"lsblk":        cmdLsblk,
		"umask":        cmdUmask,
		"mkdir":        cmdMkdir,
		"cat":          cmdCat,
		"chmod":        cmdChmod,
		"test":         cmdTest,
		"rm":           cmdRemove("rm", "-f", true),
		"shred":        cmdRemove("shred", "-u", false),
		"cp":           cmdCp,
		"install":      cmdInstall,
		"ln":           cmdLn,
		"mount":        cmdMount,
		"umount":       cmdUmount,
		"echo":         cmdEcho,
		"pgrep":        cmdPgrep,
		"sha256sum":    cmdSha256sum,
		"curl":         cmdCurl,
		"installimage": cmdInstallimage,
		"reboot":       cmdReboot,
		"systemctl":    cmdSystemctl,
		"sh":           cmdSh,
		"setsid":       cmdSetsid,
		"set":          cmdSet,
	}
}

func cmdHostname(sh *shell, io stdio, args []string) int {
	if len(args) != 0 {
		return usage(io, "hostname", args)
	}
	name, err := sh.sys.root.readFile("/etc/hostname")
	if err != nil || strings.TrimSpace(string(name)) == "" {
		name = []byte("localhost")
	}
	fmt.Fprintln(io.out, strings.TrimSpace(string(name)))
	return 0
}

func cmdDmidecode(sh *shell, io stdio, args []string) int {
	if len(args) != 2 || args[0] != "-s" || args[1] != "system-uuid" {
		return usage(io, "dmidecode", args)
	}
	fmt.Fprintln(io.out, sh.sys.m.spec.UUID)
	return 0
}

// drive is one disk as the rescue system names it.
type drive struct{ name, tran string }

// drives names the machine's disks as the kernel does: nvme drives count
// nvme0n1, nvme1n1, …; sata ones sda, sdb, ….
func (m *Machine) drives() []drive {
	var out []drive
	nvme, sata := 0, 0
	for _, kind := range m.spec.Disks {
		switch kind {
		case "nvme":
			out = append(out, drive{fmt.Sprintf("nvme%dn1", nvme), "nvme"})
			nvme++
		default:
			out = append(out, drive{"sd" + string(rune('a'+sata)), "sata"})
			sata++
		}
	}
	return out
}

func cmdLsblk(sh *shell, io stdio, args []string) int {
	if strings.Join(args, " ") != "-dn -o NAME,TRAN" {
		return usage(io, "lsblk", args)
	}
	for _, d := range sh.sys.m.drives() {
		fmt.Fprintf(io.out, "%s %s\n", d.name, d.tran)
	}
	return 0
}

// cmdMount mounts the installed root on /mnt, the only mount the
// bootstrap makes; the device must be the one the last install made root.
func cmdMount(sh *shell, io stdio, args []string) int {
	if len(args) != 2 || abs(args[1]) != "/mnt" {
		return usage(io, "mount", args)
	}
	dev := args[0]
	m := sh.sys.m
	m.mu.Lock()
	root, installed := m.disk.rootDev, m.disk.fs != nil
	m.mu.Unlock()
	sh.sys.mu.Lock()
	defer sh.sys.mu.Unlock()
	switch {
	case sh.sys.mounted:
		fmt.Fprintf(io.err, "mount: /mnt: %s already mounted on /mnt.\n", dev)
		return 32
	case !m.hasDevice(dev):
		fmt.Fprintf(io.err, "mount: /mnt: special device %s does not exist.\n", dev)
		return 32
	case !installed || dev != root:
		fmt.Fprintf(io.err, "mount: /mnt: wrong fs type, bad option, bad superblock on %s, missing codepage or helper program, or other error.\n", dev)
		return 32
	}
	sh.sys.mounted = true
	return 0
}

// hasDevice knows the drives, their first partitions and the md arrays
// an install with SWRAID makes.
func (m *Machine) hasDevice(dev string) bool {
	m.mu.Lock()
	root := m.disk.rootDev
	m.mu.Unlock()
	if dev == root && root != "" {
		return true
	}
	for _, d := range m.drives() {
		base := "/dev/" + d.name
		sep := ""
		if d.tran == "nvme" {
			sep = "p"
		}
		for _, p := range []string{"", sep + "1", sep + "2", sep + "3"} {
			if dev == base+p {
				return true
			}
		}
	}
	return false
}

func cmdUmount(sh *shell, io stdio, args []string) int {
	if len(args) != 1 || abs(args[0]) != "/mnt" {
		return usage(io, "umount", args)
	}
	sh.sys.mu.Lock()
	defer sh.sys.mu.Unlock()
	if !sh.sys.mounted {
		fmt.Fprintf(io.err, "umount: %s: not mounted.\n", args[0])
		return 32
	}
	sh.sys.mounted = false
	return 0
}

func cmdPgrep(sh *shell, io stdio, args []string) int {
	if len(args) != 2 || args[0] != "-x" {
		return usage(io, "pgrep", args)
	}
	sh.sys.mu.Lock()
	n := sh.sys.procs[args[1]]
	sh.sys.mu.Unlock()
	if args[1] == "pgrep" {
		n-- // pgrep never lists itself
	}
	for i := range n {
		fmt.Fprintln(io.out, 1000+i)
	}
	if n > 0 {
		return 0
	}
	return 1
}

func cmdReboot(sh *shell, io stdio, args []string) int {
	if len(args) != 0 {
		return usage(io, "reboot", args)
	}
	*sh.rebooting = true
	return 0
}

func cmdSet(sh *shell, io stdio, args []string) int {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") || strings.Trim(a[1:], "eu") != "" {
			return usage(io, "set", args)
		}
		if strings.Contains(a, "e") {
			sh.errexit = true
		}
	}
	return 0
}

// cmdSh is sh F (a script: "#" lines and blank lines skipped) and sh -c S.
func cmdSh(sh *shell, io stdio, args []string) int {
	var script string
	switch {
	case len(args) == 2 && args[0] == "-c":
		script = args[1]
	case len(args) == 1 && !strings.HasPrefix(args[0], "-"):
		data, err := sh.read(args[0])
		if err != nil {
			fmt.Fprintf(io.err, "sh: 0: cannot open %s: %v\n", args[0], err)
			return 2
		}
		var lines []string
		for _, l := range strings.Split(string(data), "\n") {
			if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "#") {
				lines = append(lines, l)
			}
		}
		script = strings.Join(lines, "\n")
	default:
		return usage(io, "sh", args)
	}
	return sh.child(io).runLine(script)
}

// cmdSetsid is setsid -f CMD…: CMD runs on, detached from the session,
// until the machine resets; its session streams are gone (files it was
// redirected to stay), and the exec returns 0 at once.
func cmdSetsid(sh *shell, io stdio, args []string) int {
	if len(args) < 2 || args[0] != "-f" {
		return usage(io, "setsid", args)
	}
	sess := sh.session
	d := stdio{io.in, io.out, io.err}
	if d.in == sess.in {
		d.in = strings.NewReader("")
	}
	if d.out == sess.out || d.out == sess.err {
		d.out = discard{}
	}
	if d.err == sess.out || d.err == sess.err {
		d.err = discard{}
	}
	s := sh.sys
	child := &shell{
		ctx: s.ctx, sys: s, in: d.in, out: d.out, err: d.err, umask: sh.umask,
		session: &stdio{}, rebooting: new(bool),
	}
	line := strings.Join(args[1:], " ")
	rec := s.m.farm.journal.command(Command{
		Machine: s.m.number, System: s.kind, Time: s.m.farm.clock.Now(), Line: line, Exit: -1, Detached: true,
	})
	argv := append([]string(nil), args[1:]...)
	go func() {
		status := child.run(d, argv)
		s.m.farm.journal.finish(rec, 0, status)
		if *child.rebooting {
			s.m.reboot(s)
		}
	}()
	return 0
}

// discard is io.Discard under a type of its own, so it never compares
// equal to a session stream.
type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

var _ io.Writer = discard{}
