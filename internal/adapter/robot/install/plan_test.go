package install

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

const twoNVMe = "nvme0n1 nvme\nnvme1n1 nvme\nsda sata\n"

const testKeys = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOp7 account\n"

func fullRequest() adapter.BootstrapRequest {
	return adapter.BootstrapRequest{
		Image:    "Ubuntu-2404-noble-amd64-base",
		Hostname: "node-1.example.com",
		Disks:    adapter.DisksAuto,
		Files: []adapter.File{
			{Path: "/etc/app/token", Mode: "0600", Ref: "env://APP_TOKEN"},
			{Path: "/etc/app/config.json", Mode: "644", Value: []byte("CONTENT-SENTINEL")},
		},
		FirstBoot: &adapter.FirstBoot{
			URL:     "https://127.0.0.1:8443/bin/first-boot?v=2&sig=ab%2F",
			SHA256:  strings.Repeat("ab", 32),
			Command: []string{"/usr/local/bin/first-boot", "--join", "cluster=main"},
		},
	}
}

func TestBuildGolden(t *testing.T) {
	p, err := Build(fullRequest(), twoNVMe, testKeys)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, w := range p.Writes {
		got[w.Path] = w.Content
		if w.Line != "umask 077 && mkdir -p /root/compute && cat > "+w.Path {
			t.Errorf("write line %q", w.Line)
		}
	}
	want := map[string]string{
		ConfigPath: `DRIVE1 /dev/nvme0n1
DRIVE2 /dev/nvme1n1
SWRAID 1
SWRAIDLEVEL 1
HOSTNAME node-1.example.com
PART /boot ext3 1024M
PART / ext4 all
IMAGE /root/images/Ubuntu-2404-noble-amd64-base.tar.gz
`,
		SumsPath: strings.Repeat("ab", 32) + "  /mnt/usr/local/bin/first-boot\n",
		UnitPath: `[Unit]
Description=compute first boot
Wants=network-online.target
After=network-online.target
ConditionPathExists=!/var/lib/compute/first-boot.done
[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/local/bin/first-boot --join cluster=main
ExecStartPost=/usr/bin/install -D -m 0644 /dev/null /var/lib/compute/first-boot.done
[Install]
WantedBy=multi-user.target
`,
		FPPath:   p.Fingerprint + "\n",
		KeysPath: testKeys,
		ScriptPath: `set -eu
echo 'step: installimage'
installimage -a -c /root/compute/install.conf -K /root/compute/authorized_keys
echo 'step: mount'
mount /dev/md1 /mnt
echo 'step: file 0'
install -D -m 0600 /root/compute/files/0 /mnt/etc/app/token
echo 'step: file 1'
install -D -m 0644 /root/compute/files/1 /mnt/etc/app/config.json
echo 'step: fetch first boot'
mkdir -p /mnt/usr/local/bin
curl -fsS --proto =https -o /mnt/usr/local/bin/first-boot 'https://127.0.0.1:8443/bin/first-boot?v=2&sig=ab%2F'
echo 'step: check first boot'
sha256sum -c /root/compute/first-boot.sha256
chmod 0755 /mnt/usr/local/bin/first-boot
echo 'step: first boot unit'
install -D -m 0644 /root/compute/compute-first-boot.service /mnt/etc/systemd/system/compute-first-boot.service
mkdir -p /mnt/etc/systemd/system/multi-user.target.wants
ln -sf /etc/systemd/system/compute-first-boot.service /mnt/etc/systemd/system/multi-user.target.wants/compute-first-boot.service
echo 'step: fingerprint'
install -D -m 0644 /root/compute/install.fp /mnt/etc/compute/install
echo 'step: host key'
cp /mnt/etc/ssh/ssh_host_ed25519_key.pub /root/compute/host_key.pub
echo 'step: shred files'
shred -u /root/compute/files/0 /root/compute/files/1
echo 'step: unmount'
umount /mnt
`,
	}
	for path, w := range want {
		if got[path] != w {
			t.Errorf("%s:\n%s\nwant:\n%s", path, got[path], w)
		}
	}
	if len(got) != len(want) || p.Writes[len(p.Writes)-1].Path != ScriptPath {
		t.Errorf("writes %v, want the six files, the script last", got)
	}
	for path, c := range got {
		if strings.Contains(c, "CONTENT-SENTINEL") || strings.Contains(c, "APP_TOKEN") && path != FPPath {
			t.Errorf("%s carries a file's content or reference", path)
		}
	}
}

func TestFixedLines(t *testing.T) {
	want := map[string]string{
		StartLine:      "setsid -f sh -c 'sh /root/compute/install.sh > /root/compute/install.log 2>&1; echo $? > /root/compute/install.exit' < /dev/null > /dev/null 2>&1",
		DeliverLine(2): "umask 077 && mkdir -p /root/compute/files && cat > /root/compute/files/2",
		PollLine:       "cat /root/compute/install.exit",
		ClearLine:      "rm -f /root/compute/install.exit /root/compute/install.log",
		LogExistsLine:  "test -e /root/compute/install.log",
		RunFPLine:      "cat /root/compute/install.fp",
		MountLine(Layout{Drives: []string{"/dev/nvme0n1"}}):                     "mount /dev/nvme0n1p2 /mnt",
		MountLine(Layout{Drives: []string{"/dev/sda"}}):                         "mount /dev/sda2 /mnt",
		MountLine(Layout{Drives: []string{"/dev/sda", "/dev/sdb"}, RAID: true}): "mount /dev/md1 /mnt",
	}
	for got, w := range want {
		if got != w {
			t.Errorf("line %q, want %q", got, w)
		}
	}
}

func TestChooseLayout(t *testing.T) {
	cases := []struct {
		want  adapter.DiskLayout
		lsblk string
		l     string // drives, "+raid"
	}{
		{adapter.DisksAuto, twoNVMe, "/dev/nvme0n1,/dev/nvme1n1+raid"},
		{adapter.DisksAuto, "nvme0n1 nvme\nsdb sata\nsda sata\n", "/dev/sda,/dev/sdb+raid"},
		{adapter.DisksAuto, "sda sata\nnvme0n1 nvme\n", "/dev/nvme0n1"},
		{adapter.DisksAuto, "sda sata\nsdb usb\n", "/dev/sda"},
		{adapter.DisksRAID1, "sda sata\nsdb sata\nnvme0n1 nvme\n", "/dev/sda,/dev/sdb+raid"},
		{adapter.DisksSingle, twoNVMe, "/dev/nvme0n1"},
		{adapter.DisksSingle, "sda sata\nsdb sata\n", "/dev/sda"},
	}
	for _, tc := range cases {
		l, err := ChooseLayout(tc.want, tc.lsblk)
		got := strings.Join(l.Drives, ",")
		if l.RAID {
			got += "+raid"
		}
		if err != nil || got != tc.l {
			t.Errorf("ChooseLayout(%s, %q) = %s, %v; want %s", tc.want, tc.lsblk, got, err, tc.l)
		}
	}
	if _, err := ChooseLayout(adapter.DisksRAID1, "nvme0n1 nvme\nsda sata\n"); !adapter.Is(err, adapter.InvalidInput) || adapter.FieldOf(err) != "disks" {
		t.Errorf("raid1 over one drive of each kind: %v, want InvalidInput on disks", err)
	}
	if _, err := ChooseLayout(adapter.DisksAuto, "sr0 usb\n"); !adapter.Is(err, adapter.InvalidState) {
		t.Errorf("no drive: %v, want InvalidState", err)
	}
	if _, err := ChooseLayout("raid5", twoNVMe); !adapter.Is(err, adapter.InvalidInput) {
		t.Errorf("unknown layout: %v, want InvalidInput", err)
	}
}

func TestFingerprint(t *testing.T) {
	l := Layout{Drives: []string{"/dev/sda"}}
	base := Fingerprint(fullRequest(), l)
	changes := map[string]func(*adapter.BootstrapRequest){
		"image":    func(r *adapter.BootstrapRequest) { r.Image = "Debian-1210-bookworm-amd64-base" },
		"hostname": func(r *adapter.BootstrapRequest) { r.Hostname = "node-2" },
		"disks":    func(r *adapter.BootstrapRequest) { r.Disks = adapter.DisksSingle },
		"path":     func(r *adapter.BootstrapRequest) { r.Files[0].Path = "/etc/app/other" },
		"mode":     func(r *adapter.BootstrapRequest) { r.Files[0].Mode = "0400" },
		"ref":      func(r *adapter.BootstrapRequest) { r.Files[0].Ref = "env://APP_TOKEN_V2" },
		"url":      func(r *adapter.BootstrapRequest) { r.FirstBoot.URL = "https://127.0.0.1/x" },
		"sha256":   func(r *adapter.BootstrapRequest) { r.FirstBoot.SHA256 = strings.Repeat("cd", 32) },
		"command":  func(r *adapter.BootstrapRequest) { r.FirstBoot.Command = r.FirstBoot.Command[:1] },
		"version":  func(r *adapter.BootstrapRequest) { r.Files[1].Version = "2" },
		"no files": func(r *adapter.BootstrapRequest) { r.Files = nil },
		"no first": func(r *adapter.BootstrapRequest) { r.FirstBoot = nil },
	}
	for name, change := range changes {
		r := fullRequest()
		change(&r)
		if Fingerprint(r, l) == base {
			t.Errorf("changing %s leaves the fingerprint as it is", name)
		}
	}
	r := fullRequest()
	r.Files[1].Value = []byte("another content")
	r.Files[1].Mode = "0644"
	if Fingerprint(r, l) != base {
		t.Error("a file's content or the spelling of its mode changes the fingerprint; it must not")
	}
	if Fingerprint(fullRequest(), Layout{Drives: []string{"/dev/sdb"}}) == base {
		t.Error("another drive leaves the fingerprint as it is")
	}
}

// sh reads install.sh as a script: sh -n parses it without running it.
func TestScriptParsesWithSh(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on this machine")
	}
	p, err := Build(fullRequest(), twoNVMe, testKeys)
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "install.sh")
	if err := os.WriteFile(f, []byte(p.Writes[len(p.Writes)-1].Content), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(sh, "-n", f).CombinedOutput(); err != nil {
		t.Fatalf("sh -n install.sh: %v\n%s", err, out)
	}
	inner := strings.TrimSuffix(strings.TrimPrefix(StartLine, "setsid -f sh -c '"), "' < /dev/null > /dev/null 2>&1")
	for _, line := range []string{StartLine, inner, DeliverLine(0), PollLine, ClearLine, LogExistsLine} {
		if out, err := exec.Command(sh, "-n", "-c", line).CombinedOutput(); err != nil {
			t.Fatalf("sh -n -c %q: %v\n%s", line, err, out)
		}
	}
}
