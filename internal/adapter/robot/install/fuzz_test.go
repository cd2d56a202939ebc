package install

import (
	"path"
	"slices"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// FuzzBuild: whatever a bootstrap request holds and a machine's lsblk
// reports, Build refuses it with the attribute at fault, or every value
// reaches the install script, the installimage config, the first-boot unit,
// the checksum file and the ready command as exactly the one word it was,
// with no other command beside it (shellWords is the oracle).
func FuzzBuild(f *testing.F) {
	const sum = "abababababababababababababababababababababababababababababababab"
	for _, s := range [][]string{
		{"node-1.example.com", "Ubuntu-2404-noble-amd64-base", "auto", "/etc/app/token", "0600", "https://127.0.0.1:8443/bin/fb?v=2&sig=ab%2F", sum, "/usr/local/bin/fb", "cluster=main", "test", "-e", twoNVMe},
		{"n", "img", "single", "/a", "644", "https://h/x", sum, "/b", "--x", "systemctl", "is-active", "sda sata\n"},
		{"n", "img", "raid1", "/etc/x;rm", "0600", "https://h/$(id)", sum, "/b;x", "a b", "A=b", "x", "nvme0n1 nvme\nnvme1n1 nvme\n"},
		{"N", "i mg", "auto", "/e/../x", "0800", "http://h/", "AB", "rel", "'", "a|b", "{a,b}", "sd;a sata\nsdb sata\n"},
		{"n", "img", "auto", "/p", "0600", "https://u:p@h/", sum, "/b", "%h", "~root", "#c", "nvme0n1 nvme\n"},
		{"n", "img", "auto", "/p", "0600", "https://h/a|b>c", sum, "/b", "*", "a&b", "x\ny", "sda usb\n"},
		{"n", "img", "auto", "/p", "0600", "https://h/a|b>c(d)*?[e]{f}~g#h!", sum, "/b", "a&b|c", "A=b", "x", "sda sata\n"},
		{"n", "img", "auto", "/p", "0600", "https://h/", sum, "/b", "~root", "#c", "{a,b}", "sda sata\n"},
		{"n", "img", "auto", "/p", "0600", "https://h/", sum, "/b", "*", "a<b", "=x", "sda sata\n"},
		{"n", "img", "auto", "/p", "0600", "https://h/a&b", sum, "/b", "a&b", "a&b", "c|d", "sda sata\n"},
		{"n", "img", "auto", "/p", "0600", "https://h/$x", sum, "/b", "$x", "test", "$HOME", "sda sata\n"},
	} {
		f.Add(s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7], s[8], s[9], s[10], s[11])
	}
	f.Fuzz(func(t *testing.T, hostname, image, disks, filePath, mode, url, sha, cmd0, cmd1, ready0, ready1, lsblk string) {
		req := adapter.BootstrapRequest{
			Hostname: hostname, Image: image, Disks: adapter.DiskLayout(disks),
			Files:        []adapter.File{{Path: filePath, Mode: mode, Ref: "env://APP_TOKEN"}},
			FirstBoot:    &adapter.FirstBoot{URL: url, SHA256: sha, Command: []string{cmd0, cmd1}},
			ReadyCommand: []string{ready0, ready1},
		}
		p, err := Build(req, lsblk, testKeys)
		if err != nil {
			if !adapter.Is(err, adapter.InvalidInput) && !adapter.Is(err, adapter.InvalidState) {
				t.Fatalf("Build refused %+v with %v, neither InvalidInput nor InvalidState", req, err)
			}
			if adapter.Is(err, adapter.InvalidInput) && adapter.FieldOf(err) == "" {
				t.Fatalf("Build refused %+v with %v, which names no attribute", req, err)
			}
			return
		}
		contents := map[string]string{}
		for _, w := range p.Writes {
			contents[w.Path] = w.Content
			wantWords(t, w.Line, "umask", "077", "&&", "mkdir", "-p", Dir, "&&", "cat", ">", w.Path)
		}
		checkScript(t, req, contents[ScriptPath])
		checkConfig(t, req, contents[ConfigPath])
		checkUnit(t, req, contents[UnitPath])
		if got := strings.Fields(contents[SumsPath]); !slices.Equal(got, []string{sha, "/mnt" + cmd0}) || strings.Count(contents[SumsPath], "\n") != 1 {
			t.Fatalf("checksum file %q, want %s and /mnt%s on one line", contents[SumsPath], sha, cmd0)
		}
		wantShell(t, ReadyLine(req.ReadyCommand), req.ReadyCommand...)
	})
}

// wantWords checks a line made of fixed parts by splitting it on blanks:
// the parts hold no quote, so a value that split or joined shows.
func wantWords(t *testing.T, line string, want ...string) {
	t.Helper()
	if got := strings.Fields(line); !slices.Equal(got, want) {
		t.Fatalf("line %q is the words %q, want %q", line, got, want)
	}
}

// wantShell checks that line is, to a shell, exactly the words want.
func wantShell(t *testing.T, line string, want ...string) {
	t.Helper()
	got, err := shellWords(line)
	if err != nil || !slices.Equal(got, want) {
		t.Fatalf("line %q reads as %q (%v), want the words %q", line, got, err, want)
	}
}

// checkScript: every line of install.sh is plain words to a shell, and the
// lines that carry a value carry it as one word.
func checkScript(t *testing.T, req adapter.BootstrapRequest, script string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(script, "\n"), "\n")
	mode, _ := NormalMode(req.Files[0].Mode)
	bin := "/mnt" + req.FirstBoot.Command[0]
	var sawFile, sawCurl, sawDir bool
	for _, l := range lines {
		words, err := shellWords(l)
		if err != nil {
			t.Fatalf("install.sh line %q: %v", l, err)
		}
		switch {
		case len(words) > 0 && words[0] == "install" && slices.Contains(words, FilePath(0)):
			wantShell(t, l, "install", "-D", "-m", mode, FilePath(0), "/mnt"+req.Files[0].Path)
			sawFile = true
		case len(words) > 0 && words[0] == "curl":
			wantShell(t, l, "curl", "-fsS", "--proto", "=https", "-o", bin, req.FirstBoot.URL)
			sawCurl = true
		case slices.Equal(words, []string{"mkdir", "-p", path.Dir(bin)}):
			sawDir = true
		}
	}
	if !sawFile || !sawCurl || !sawDir {
		t.Fatalf("install.sh lacks the file's install (%t), the fetch (%t) or its directory (%t):\n%s", sawFile, sawCurl, sawDir, script)
	}
}

// checkConfig: installimage reads KEY VALUE lines; the hostname and the
// image are one value each, the drives device paths, and no line is added.
func checkConfig(t *testing.T, req adapter.BootstrapRequest, config string) {
	t.Helper()
	var keys []string
	for _, l := range strings.Split(strings.TrimSuffix(config, "\n"), "\n") {
		f := strings.Fields(l)
		keys = append(keys, f[0])
		switch {
		case f[0] == "HOSTNAME":
			wantWords(t, l, "HOSTNAME", req.Hostname)
		case f[0] == "IMAGE":
			wantWords(t, l, "IMAGE", "/root/images/"+req.Image+".tar.gz")
		case strings.HasPrefix(f[0], "DRIVE"):
			if len(f) != 2 || !strings.HasPrefix(f[1], "/dev/") || !isDeviceName(strings.TrimPrefix(f[1], "/dev/")) {
				t.Fatalf("installimage config line %q is not one drive", l)
			}
		}
	}
	keys = slices.DeleteFunc(keys, func(k string) bool { return strings.HasPrefix(k, "DRIVE") })
	want := []string{"SWRAID", "HOSTNAME", "PART", "PART", "IMAGE"}
	if slices.Contains(keys, "SWRAIDLEVEL") {
		want = slices.Insert(want, 1, "SWRAIDLEVEL")
	}
	if !slices.Equal(keys, want) {
		t.Fatalf("installimage config has the keys %q, want %q:\n%s", keys, want, config)
	}
}

// checkUnit: the unit has the template's lines and no other, and its
// ExecStart is the command's words, none of which systemd would expand,
// unquote or take for a separator.
func checkUnit(t *testing.T, req adapter.BootstrapRequest, unit string) {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(unit, "\n"), "\n")
	if len(lines) != 12 {
		t.Fatalf("the unit has %d lines, want 12:\n%s", len(lines), unit)
	}
	var exec string
	for _, l := range lines {
		if v, ok := strings.CutPrefix(l, "ExecStart="); ok {
			exec = v
		}
	}
	words := strings.Fields(exec)
	if !slices.Equal(words, req.FirstBoot.Command) || strings.ContainsAny(exec, "'\"\\$%\t") || slices.Contains(words, ";") ||
		strings.IndexAny(words[0][:1], "@-:+!") == 0 {
		t.Fatalf("ExecStart=%q is not the command %q as plain words", exec, req.FirstBoot.Command)
	}
}
