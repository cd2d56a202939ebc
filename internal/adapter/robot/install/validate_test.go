package install

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

func TestValidateRefuses(t *testing.T) {
	cases := []struct {
		field  string
		change func(*adapter.BootstrapRequest)
	}{
		{"image", func(r *adapter.BootstrapRequest) { r.Image = "" }},
		{"image", func(r *adapter.BootstrapRequest) { r.Image = "Ubuntu 2404" }},
		{"image", func(r *adapter.BootstrapRequest) { r.Image = "../etc/passwd" }},
		{"image", func(r *adapter.BootstrapRequest) { r.Image = "a$b" }},
		{"hostname", func(r *adapter.BootstrapRequest) { r.Hostname = "" }},
		{"hostname", func(r *adapter.BootstrapRequest) { r.Hostname = "a;reboot" }},
		{"hostname", func(r *adapter.BootstrapRequest) { r.Hostname = "a\nb" }},
		{"hostname", func(r *adapter.BootstrapRequest) { r.Hostname = "-a" }},
		{"hostname", func(r *adapter.BootstrapRequest) { r.Hostname = "a..b" }},
		{"hostname", func(r *adapter.BootstrapRequest) { r.Hostname = strings.Repeat("a", 64) }},
		{"files[1].path", func(r *adapter.BootstrapRequest) { r.Files[1].Path = "etc/app" }},
		{"files[1].path", func(r *adapter.BootstrapRequest) { r.Files[1].Path = "/" }},
		{"files[1].path", func(r *adapter.BootstrapRequest) { r.Files[1].Path = "/etc/../root/x" }},
		{"files[1].path", func(r *adapter.BootstrapRequest) { r.Files[1].Path = "/etc/.." }},
		{"files[1].path", func(r *adapter.BootstrapRequest) { r.Files[1].Path = "/etc//x" }},
		{"files[1].path", func(r *adapter.BootstrapRequest) { r.Files[1].Path = "/etc/x/" }},
		{"files[1].path", func(r *adapter.BootstrapRequest) { r.Files[1].Path = "/etc/a b" }},
		{"files[1].path", func(r *adapter.BootstrapRequest) { r.Files[1].Path = "/etc/a'b" }},
		{"files[1].path", func(r *adapter.BootstrapRequest) { r.Files[1].Path = "/etc/a%i" }},
		{"files[1].path", func(r *adapter.BootstrapRequest) { r.Files[1].Path = "/etc/$HOME" }},
		{"files[1].path", func(r *adapter.BootstrapRequest) { r.Files[1].Path = "/etc/a`id`" }},
		{"files[1].path", func(r *adapter.BootstrapRequest) { r.Files[1].Path = `/etc/a\b` }},
		{"files[1].path", func(r *adapter.BootstrapRequest) { r.Files[1].Path = "/etc/a|b" }},
		{"files[1].path", func(r *adapter.BootstrapRequest) { r.Files[1].Path = "/etc/a&b" }},
		{"files[1].path", func(r *adapter.BootstrapRequest) { r.Files[1].Path = "/etc/app/token" }},
		{"files[1].mode", func(r *adapter.BootstrapRequest) { r.Files[1].Mode = "0800" }},
		{"files[1].mode", func(r *adapter.BootstrapRequest) { r.Files[1].Mode = "1777" }},
		{"files[1].mode", func(r *adapter.BootstrapRequest) { r.Files[1].Mode = "" }},
		{"files[1].mode", func(r *adapter.BootstrapRequest) { r.Files[1].Mode = "07" }},
		{"files[1].mode", func(r *adapter.BootstrapRequest) { r.Files[1].Mode = "rw-r--r--" }},
		{"files[1]", func(r *adapter.BootstrapRequest) { r.Files[1].Ref = "env://X" }},
		{"files[1]", func(r *adapter.BootstrapRequest) { r.Files[1].Value = nil }},
		{"first_boot.url", func(r *adapter.BootstrapRequest) { r.FirstBoot.URL = "http://127.0.0.1/x" }},
		{"first_boot.url", func(r *adapter.BootstrapRequest) { r.FirstBoot.URL = "https://" }},
		{"first_boot.url", func(r *adapter.BootstrapRequest) { r.FirstBoot.URL = "https://h/x'y" }},
		{"first_boot.url", func(r *adapter.BootstrapRequest) { r.FirstBoot.URL = "https://h/x y" }},
		{"first_boot.url", func(r *adapter.BootstrapRequest) { r.FirstBoot.URL = "https://h/$(id)" }},
		{"first_boot.sha256", func(r *adapter.BootstrapRequest) { r.FirstBoot.SHA256 = "abc" }},
		{"first_boot.sha256", func(r *adapter.BootstrapRequest) { r.FirstBoot.SHA256 = strings.Repeat("g", 64) }},
		// The contract's digests are lower case, as sha256sum prints them.
		{"first_boot.sha256", func(r *adapter.BootstrapRequest) { r.FirstBoot.SHA256 = strings.Repeat("AB", 32) }},
		{"first_boot.command", func(r *adapter.BootstrapRequest) { r.FirstBoot.Command = nil }},
		{"first_boot.command[0]", func(r *adapter.BootstrapRequest) { r.FirstBoot.Command[0] = "first-boot" }},
		{"first_boot.command[2]", func(r *adapter.BootstrapRequest) { r.FirstBoot.Command[2] = "a;b" }},
		{"first_boot.command[2]", func(r *adapter.BootstrapRequest) { r.FirstBoot.Command[2] = "%h" }},
		{"first_boot.command[1]", func(r *adapter.BootstrapRequest) { r.FirstBoot.Command[1] = "" }},
		{"ready_command[0]", func(r *adapter.BootstrapRequest) { r.ReadyCommand = []string{"a b"} }},
		{"ready_command", func(r *adapter.BootstrapRequest) { r.ReadyCommand = []string{} }},
		{"disks", func(r *adapter.BootstrapRequest) { r.Disks = "raid5" }},
	}
	for _, tc := range cases {
		r := fullRequest()
		tc.change(&r)
		err := Validate(r)
		if !adapter.Is(err, adapter.InvalidInput) || adapter.FieldOf(err) != tc.field {
			t.Errorf("%s: Validate = %v (field %q), want InvalidInput on %s", tc.field, err, adapter.FieldOf(err), tc.field)
		}
		if _, err := Build(r, twoNVMe, testKeys); err == nil {
			t.Errorf("%s: Build accepted what Validate refuses", tc.field)
		}
	}
	if err := Validate(fullRequest()); err != nil {
		t.Fatalf("Validate(full request) = %v", err)
	}
	r := fullRequest()
	r.ReadyCommand = []string{"/usr/bin/test", "-e", "/var/lib/app/ready"}
	if err := Validate(r); err != nil {
		t.Fatalf("Validate(ready command) = %v", err)
	}
}

// tokens splits a protocol line into its words and operators, or fails on
// anything else: the emulator's interpreter and sh read such a line alike.
func tokens(line string) ([]string, bool) {
	var out []string
	for _, f := range strings.Split(line, " ") {
		if f != ";" {
			f = strings.TrimSuffix(f, ";") // "a; b" joins commands
		}
		switch {
		case f == "&&" || f == ";" || f == ">" || f == ">>" || f == "<" || f == "2>&1":
			out = append(out, f)
		case isBare(f):
			out = append(out, f)
		default:
			return nil, false
		}
	}
	return out, true
}

// quotedWords replaces each single-quoted word by a bare placeholder once it
// is checked: no quote inside, no newline.
func quotedWords(line string) (string, bool) {
	var b strings.Builder
	for {
		i := strings.IndexByte(line, '\'')
		if i < 0 {
			b.WriteString(line)
			return b.String(), true
		}
		j := strings.IndexByte(line[i+1:], '\'')
		if j < 0 || strings.ContainsAny(line[i+1:i+1+j], "\n") {
			return "", false
		}
		b.WriteString(line[:i] + "Q")
		line = line[i+1+j+1:]
	}
}

func wellFormed(line string) bool {
	if line == StartLine {
		// The one nested line: its inner string is a line of its own.
		inner := strings.TrimSuffix(strings.TrimPrefix(line, "setsid -f sh -c '"), "' < /dev/null > /dev/null 2>&1")
		return wellFormed(strings.Replace(inner, "echo $? >", "echo Q >", 1)) &&
			wellFormed("setsid -f sh -c Q < /dev/null > /dev/null 2>&1")
	}
	plain, ok := quotedWords(line)
	if !ok {
		return false
	}
	_, ok = tokens(plain)
	return ok
}

var nasty = []string{"a", "Z", "9", "/", ".", "-", "_", ":", "=", "@", "%", "+", ",", " ", "'", "\"", "$", ";", "&", "|", "\\", "`", "\n", "..", "?", "#", "~", "(", "*", "é"}

func randomValue(rng *rand.Rand, prefix string) string {
	s := prefix
	for range rng.IntN(8) {
		s += nasty[rng.IntN(len(nasty))]
	}
	return s
}

// Whatever a request holds, Build either refuses it or generates only lines
// of protocol words, and a unit file whose ExecStart systemd reads as the
// argv given.
func TestGeneratedLinesStayInTheWordSyntax(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	accepted := 0
	for range 20000 {
		r := fullRequest()
		switch rng.IntN(6) {
		case 0:
			r.Hostname = randomValue(rng, "h")
		case 1:
			r.Files[0].Path = randomValue(rng, "/e")
		case 2:
			r.FirstBoot.URL = randomValue(rng, "https://h")
		case 3:
			r.FirstBoot.Command[0] = randomValue(rng, "/b")
			r.FirstBoot.Command[2] = randomValue(rng, "")
		case 4:
			r.Image = randomValue(rng, "I")
		case 5:
			r.ReadyCommand = []string{randomValue(rng, "/r"), randomValue(rng, "")}
		}
		p, err := Build(r, twoNVMe, testKeys)
		if err != nil {
			continue
		}
		accepted++
		lines := []string{StartLine, PollLine, MountLine(p.Layout), DeliverLine(0), ReadyLine(r.ReadyCommand),
			HostnameLine, IdentifyLine, LsblkLine, RunningLine, LogLine, HostKeyLine, UnitLine, HostKeyCopyLine,
			InstalledFPLine, UnmountLine, InstalledHostKeyLine, RunFPLine, LogExistsLine, ClearLine}
		for _, w := range p.Writes {
			lines = append(lines, w.Line)
			if w.Path == ScriptPath {
				lines = append(lines, strings.Split(strings.TrimSuffix(w.Content, "\n"), "\n")...)
			}
			if w.Path == UnitPath {
				exec := strings.SplitN(w.Content, "ExecStart=", 2)[1]
				exec = exec[:strings.IndexByte(exec, '\n')]
				if exec != strings.Join(r.FirstBoot.Command, " ") || strings.ContainsAny(exec, "%'\"\\$;") {
					t.Fatalf("ExecStart=%q for %q", exec, r.FirstBoot.Command)
				}
			}
		}
		for _, l := range lines {
			if l != "" && !wellFormed(l) {
				t.Fatalf("generated line %q leaves the protocol's word syntax (request %+v)", l, r)
			}
		}
	}
	if accepted < 2000 {
		t.Fatalf("only %d of 20000 random requests were accepted: the property was hardly tested", accepted)
	}
}
