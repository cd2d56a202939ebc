package install

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"path"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Plan is everything one install writes in rescue besides the files'
// contents, which the caller streams with DeliverLine.
type Plan struct {
	Layout      Layout
	Fingerprint string
	// Writes are the rescue files, each written with its Line and the
	// Content on stdin, in order, before StartLine.
	Writes []Write
}

// Write is one rescue file: the line that writes it, and its content.
type Write struct {
	Step    string
	Path    string
	Line    string
	Content string
}

// Build validates req, chooses the disks from the machine's lsblk output and
// generates the rescue files; keys is the authorized_keys content the
// installed system admits (public keys, never a secret).
func Build(req adapter.BootstrapRequest, lsblk, keys string) (Plan, error) {
	if err := Validate(req); err != nil {
		return Plan{}, err
	}
	l, err := ChooseLayout(req.Disks, lsblk)
	if err != nil {
		return Plan{}, err
	}
	p := Plan{Layout: l, Fingerprint: Fingerprint(req, l)}
	add := func(step, path, content string) {
		p.Writes = append(p.Writes, Write{Step: step, Path: path, Line: WriteLine(path), Content: content})
	}
	add("write authorized keys", KeysPath, keys)
	add("write installimage config", ConfigPath, Config(req, l))
	if fb := req.FirstBoot; fb != nil {
		add("write first boot checksum", SumsPath, Sums(*fb))
		add("write first boot unit", UnitPath, Unit(*fb))
	}
	add("write install fingerprint", FPPath, p.Fingerprint+"\n")
	add("write install script", ScriptPath, Script(req, l))
	return p, nil
}

// Config is installimage's config: the drives, RAID 1 or none, the
// hostname, a /boot and a root partition, the image.
func Config(req adapter.BootstrapRequest, l Layout) string {
	var b strings.Builder
	for i, d := range l.Drives {
		fmt.Fprintf(&b, "DRIVE%d %s\n", i+1, d)
	}
	if l.RAID {
		b.WriteString("SWRAID 1\nSWRAIDLEVEL 1\n")
	} else {
		b.WriteString("SWRAID 0\n")
	}
	fmt.Fprintf(&b, "HOSTNAME %s\nPART /boot ext3 1024M\nPART / ext4 all\nIMAGE /root/images/%s.tar.gz\n", req.Hostname, req.Image)
	return b.String()
}

// Sums is the sha256sum -c file for the first-boot binary on the
// installed disk.
func Sums(fb adapter.FirstBoot) string {
	return strings.ToLower(fb.SHA256) + "  /mnt" + fb.Command[0] + "\n"
}

// Unit is the first-boot oneshot: it runs once (the done file ends it for
// good) and is safe to run again until then.
func Unit(fb adapter.FirstBoot) string {
	return "[Unit]\nDescription=compute first boot\nWants=network-online.target\nAfter=network-online.target\n" +
		"ConditionPathExists=!/var/lib/compute/first-boot.done\n[Service]\nType=oneshot\nRemainAfterExit=yes\n" +
		"ExecStart=" + strings.Join(fb.Command, " ") + "\n" +
		"ExecStartPost=/usr/bin/install -D -m 0644 /dev/null /var/lib/compute/first-boot.done\n" +
		"[Install]\nWantedBy=multi-user.target\n"
}

// Script is install.sh: each step announced on the log first, so the log's
// last line names the step that failed and never a content.
func Script(req adapter.BootstrapRequest, l Layout) string {
	lines := []string{"set -eu"}
	step := func(name string, cmds ...string) {
		lines = append(lines, "echo "+word("step: "+name))
		lines = append(lines, cmds...)
	}
	step("installimage", "installimage -a -c "+ConfigPath+" -K "+KeysPath)
	step("mount", MountLine(l))
	for i, f := range req.Files {
		mode, _ := NormalMode(f.Mode)
		step(fmt.Sprintf("file %d", i), "install -D -m "+mode+" "+FilePath(i)+" /mnt"+f.Path)
	}
	if fb := req.FirstBoot; fb != nil {
		bin := "/mnt" + fb.Command[0]
		step("fetch first boot", "mkdir -p "+path.Dir(bin), "curl -fsS --proto =https -o "+bin+" "+word(fb.URL))
		step("check first boot", "sha256sum -c "+SumsPath, "chmod 0755 "+bin)
		step("first boot unit",
			"install -D -m 0644 "+UnitPath+" /mnt/etc/systemd/system/"+UnitName,
			"mkdir -p /mnt/etc/systemd/system/multi-user.target.wants",
			"ln -sf /etc/systemd/system/"+UnitName+" /mnt/etc/systemd/system/multi-user.target.wants/"+UnitName)
	}
	step("fingerprint", "install -D -m 0644 "+FPPath+" /mnt"+InstalledFP)
	step("host key", HostKeyCopyLine)
	if len(req.Files) > 0 {
		shred := "shred -u"
		for i := range req.Files {
			shred += " " + FilePath(i)
		}
		step("shred files", shred)
	}
	step("unmount", UnmountLine)
	return strings.Join(lines, "\n") + "\n"
}

// Fingerprint digests what an install makes of the machine: image, disks,
// hostname, each file's path, mode and reference (never its content: a
// write-only value counts as "value" with the version its caller gives),
// and the first boot. An installed
// disk with the same fingerprint is not installed again.
func Fingerprint(req adapter.BootstrapRequest, l Layout) string {
	h := sha256.New()
	fmt.Fprintf(h, "image=%s\nhostname=%s\ndisks=%s raid=%t drives=%s\n", req.Image, req.Hostname, req.Disks, l.RAID, strings.Join(l.Drives, ","))
	for i, f := range req.Files {
		source := "ref:" + f.Ref
		if f.Ref == "" {
			source = "value version=" + f.Version
		}
		mode, _ := NormalMode(f.Mode)
		fmt.Fprintf(h, "file %d path=%s mode=%s %s\n", i, f.Path, mode, source)
	}
	if fb := req.FirstBoot; fb != nil {
		fmt.Fprintf(h, "first_boot url=%s sha256=%s command=%s\n", fb.URL, strings.ToLower(fb.SHA256), strings.Join(fb.Command, " "))
	}
	return hex.EncodeToString(h.Sum(nil))
}
