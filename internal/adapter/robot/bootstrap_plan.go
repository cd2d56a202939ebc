package robot

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// The install plan: what the rescue system is given to install the
// machine, all of it public (paths, modes, the image, the URL and digest of
// the first-boot binary, its argv). File contents are not in it; they are
// streamed apart, each to /root/compute/files/<index>.

// Paths in the rescue system (issue's "Paths the bootstrap uses").
const (
	workDir        = "/root/compute"
	filesDir       = workDir + "/files"
	confPath       = workDir + "/install.conf"
	scriptPath     = workDir + "/install.sh"
	sumsPath       = workDir + "/first-boot.sha256"
	unitPath       = workDir + "/compute-first-boot.service"
	fpPath         = workDir + "/install.fp"
	logPath        = workDir + "/install.log"
	exitPath       = workDir + "/install.exit"
	hostKeyPubPath = workDir + "/host_key.pub"
	keysPath       = workDir + "/authorized_keys"
	unitName       = "compute-first-boot.service"
	installedFP    = "/etc/compute/install"
)

// startLine starts install.sh detached from the session, so an SSH drop
// does not kill it, with its log and exit status in files the poll reads.
const startLine = "setsid -f sh -c 'sh " + scriptPath + " > " + logPath + " 2>&1; echo $? > " + exitPath + "' < /dev/null"

// installPlan is one machine's install.
type installPlan struct {
	conf, script, unit, sums string
	rootDev                  string // what the installed root is mounted from
	fingerprint              string
}

// bare is the protocol's unquoted word: what may appear in a command line
// or a unit file without quoting.
var bare = regexp.MustCompile(`^[A-Za-z0-9_./:=@%+,-]+$`)

// planInstall builds the plan for req on a machine whose drives lsblk
// lists ("nvme0n1 nvme" lines).
func planInstall(req adapter.BootstrapRequest, lsblk string) (installPlan, error) {
	if fb := req.FirstBoot; fb != nil && (len(fb.Command) == 0 || !strings.HasPrefix(fb.Command[0], "/") || !bare.MatchString(fb.Command[0])) {
		return installPlan{}, adapter.Errorf(adapter.InvalidInput, "first_boot.command must start with the absolute path the binary is installed at, such as /usr/local/bin/agent").WithField("first_boot.command")
	}
	drives, err := chooseDrives(req.Disks, lsblk)
	if err != nil {
		return installPlan{}, err
	}
	for _, w := range []struct{ field, v string }{{"image", req.Image}, {"hostname", req.Hostname}} {
		if !bare.MatchString(w.v) {
			return installPlan{}, adapter.Errorf(adapter.InvalidInput, "%s %q holds characters the installer cannot take; use letters, digits, dots and dashes", w.field, w.v).WithField(w.field)
		}
	}
	var conf strings.Builder
	for i, d := range drives {
		fmt.Fprintf(&conf, "DRIVE%d %s\n", i+1, d)
	}
	p := installPlan{}
	if len(drives) > 1 {
		conf.WriteString("SWRAID 1\nSWRAIDLEVEL 1\n")
		p.rootDev = "/dev/md1"
	} else if strings.Contains(drives[0], "nvme") {
		p.rootDev = drives[0] + "p2"
	} else {
		p.rootDev = drives[0] + "2"
	}
	fmt.Fprintf(&conf, "HOSTNAME %s\nPART /boot ext3 1024M\nPART / ext4 all\nIMAGE /root/images/%s.tar.gz\n", req.Hostname, req.Image)
	p.conf = conf.String()
	if p.script, err = installScript(req, p.rootDev); err != nil {
		return installPlan{}, err
	}
	if fb := req.FirstBoot; fb != nil {
		p.unit = firstBootUnit(fb.Command)
		p.sums = fb.SHA256 + "  /mnt" + fb.Command[0] + "\n"
	}
	p.fingerprint = installFingerprint(req, drives)
	return p, nil
}

// chooseDrives reads lsblk and picks the drives of the layout: RAID 1 over
// the NVMe drives when there are two or more, else over the SATA drives,
// else the first drive alone.
func chooseDrives(layout adapter.DiskLayout, lsblk string) ([]string, error) {
	kinds := map[string][]string{}
	var all []string
	for _, line := range strings.Split(lsblk, "\n") {
		f := strings.Fields(line)
		if len(f) != 2 || !bare.MatchString(f[0]) {
			continue
		}
		kinds[f[1]] = append(kinds[f[1]], "/dev/"+f[0])
		all = append(all, "/dev/"+f[0])
	}
	if len(all) == 0 {
		return nil, adapter.Errorf(adapter.InvalidState, "the rescue system lists no drives (lsblk); check the server in Robot")
	}
	raid := kinds["nvme"]
	if len(raid) < 2 {
		raid = kinds["sata"]
	}
	switch {
	case layout == adapter.DisksSingle:
		return all[:1], nil
	case len(raid) >= 2:
		return raid, nil
	case layout == adapter.DisksRAID1:
		return nil, adapter.Errorf(adapter.InvalidInput, "disks = raid1 needs two drives of one kind, and the machine has %s; use auto or single", strings.Join(all, ", ")).WithField("disks")
	}
	return all[:1], nil
}

// installScript is install.sh: installimage, then every file, the
// first-boot binary and unit, the fingerprint, the host key copied out for
// the pin, with each step named first so the log's last line says which
// failed. It holds paths, modes, the URL, the digest and the argv only.
func installScript(req adapter.BootstrapRequest, rootDev string) (string, error) {
	var s strings.Builder
	step := func(name string, lines ...string) {
		fmt.Fprintf(&s, "echo 'step: %s'\n", name)
		for _, l := range lines {
			s.WriteString(l + "\n")
		}
	}
	s.WriteString("set -eu\n")
	step("installimage", "installimage -a -c "+confPath+" -K "+keysPath)
	step("mount", "mount "+rootDev+" /mnt")
	for i, f := range req.Files {
		field := "files[" + strconv.Itoa(i) + "]"
		if !strings.HasPrefix(f.Path, "/") || !bare.MatchString(f.Path) || strings.Contains(f.Path, "..") {
			return "", adapter.Errorf(adapter.InvalidInput, "%s.path %q must be an absolute path of letters, digits and ./_-", field, f.Path).WithField(field + ".path")
		}
		if !regexp.MustCompile(`^0?[0-7]{3}$`).MatchString(f.Mode) {
			return "", adapter.Errorf(adapter.InvalidInput, "%s.mode %q is not an octal mode such as 0600", field, f.Mode).WithField(field + ".mode")
		}
		step("file "+strconv.Itoa(i), fmt.Sprintf("install -D -m %s %s/%d /mnt%s", f.Mode, filesDir, i, f.Path))
	}
	if fb := req.FirstBoot; fb != nil {
		bin := fb.Command[0]
		step("first boot download", "curl -fsS --proto =https -o /mnt"+bin+" "+quote(fb.URL))
		step("first boot checksum", "sha256sum -c "+sumsPath)
		step("first boot install", "chmod 0755 /mnt"+bin,
			"install -D -m 0644 "+unitPath+" /mnt/etc/systemd/system/"+unitName,
			"ln -sf /etc/systemd/system/"+unitName+" /mnt/etc/systemd/system/multi-user.target.wants/"+unitName)
	}
	step("fingerprint", "install -D -m 0644 "+fpPath+" /mnt"+installedFP)
	step("host key", "cp /mnt/etc/ssh/ssh_host_ed25519_key.pub "+hostKeyPubPath)
	if len(req.Files) > 0 {
		names := make([]string, len(req.Files))
		for i := range req.Files {
			names[i] = filesDir + "/" + strconv.Itoa(i)
		}
		step("shred", "shred -u "+strings.Join(names, " "))
	}
	step("umount", "umount /mnt")
	return s.String(), nil
}

// firstBootUnit is the oneshot unit that runs argv once the network is
// up, and never again once it succeeded.
func firstBootUnit(argv []string) string {
	return "[Unit]\nDescription=compute first boot\nWants=network-online.target\nAfter=network-online.target\n" +
		"ConditionPathExists=!/var/lib/compute/first-boot.done\n[Service]\nType=oneshot\nRemainAfterExit=yes\n" +
		"ExecStart=" + strings.Join(argv, " ") + "\n" +
		"ExecStartPost=/usr/bin/install -D -m 0644 /dev/null /var/lib/compute/first-boot.done\n" +
		"[Install]\nWantedBy=multi-user.target\n"
}

// installFingerprint digests what the install writes: image, drives,
// hostname, each file's path, mode and source (the reference, or "value":
// never content), and the first boot. A machine whose disk carries it is
// installed already.
func installFingerprint(req adapter.BootstrapRequest, drives []string) string {
	h := sha256.New()
	fmt.Fprintf(h, "image=%s\ndrives=%s\nhostname=%s\n", req.Image, strings.Join(drives, ","), req.Hostname)
	for _, f := range req.Files {
		src := "value"
		if f.Ref != "" {
			src = "ref:" + f.Ref
		}
		fmt.Fprintf(h, "file=%s %s %s\n", f.Path, f.Mode, src)
	}
	if fb := req.FirstBoot; fb != nil {
		fmt.Fprintf(h, "first_boot=%s %s %s\n", fb.URL, fb.SHA256, strings.Join(fb.Command, " "))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// quote makes s one word of the protocol: bare when it can be, else
// single-quoted (s holds no quote: callers refuse those).
func quote(s string) string {
	if bare.MatchString(s) {
		return s
	}
	return "'" + s + "'"
}

// commandLine joins argv as one command line, refusing a word that
// neither form can carry.
func commandLine(field string, argv []string) (string, error) {
	words := make([]string, len(argv))
	for i, w := range argv {
		if w == "" || strings.ContainsAny(w, "'\n\r\\") {
			return "", adapter.Errorf(adapter.InvalidInput, "%s[%d] %q cannot be passed as one word; remove quotes, backslashes and line breaks", field, i, w).WithField(field)
		}
		words[i] = quote(w)
	}
	return strings.Join(words, " "), nil
}
