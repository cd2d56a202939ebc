package adapter

import (
	"strings"
	"testing"
)

// TestBootstrapRules: each rule refuses what would break a unit file or a
// shell line, and accepts the ordinary values, and no message repeats a
// URL's path or query, where tokens live.
func TestBootstrapRules(t *testing.T) {
	for _, c := range []struct {
		name  string
		check func(string) error
		good  []string
		bad   []string
	}{
		{"hostname", CheckHostname, []string{"db-1", "web.example.com"}, []string{"Db", "db 1", "db_1", "-db", "db$x", "a\nb", ""}},
		{"image", CheckImage, []string{"Ubuntu-2404-noble-amd64-base"}, []string{"ubuntu 24", "x'y", "$IMG", ""}},
		{"disks", CheckDisks, []string{"auto", "raid1", "single"}, []string{"raid0", ""}},
		{"path", CheckPath, []string{"/etc/app/token", "/opt/a_b/c.conf"}, []string{"etc/x", "/etc/a b", "/etc/$x", "/etc/%h", "/etc/'x", "/etc/", "/etc/../x", "/a//b", "/a\nb"}},
		{"mode", CheckMode, []string{"0600", "644", "0755"}, []string{"0800", "rw", "06000", ""}},
		{"url", CheckURL, []string{"https://dl.example/x?v=1%202"}, []string{"http://dl.example/x", "ftp://h/x", "https://u:p@h/x", "https://h/a b", "https://h/$x", "x"}},
		{"sha256", CheckSHA256, []string{strings.Repeat("ab", 32)}, []string{"", strings.Repeat("AB", 32), strings.Repeat("a", 63)}},
		{"word", CheckWord, []string{"--port=8080", "/usr/local/bin/agent"}, []string{"", "a b", "%h", "$HOME", "a;b", `a"b`, "a\tb"}},
	} {
		for _, v := range c.good {
			if err := c.check(v); err != nil {
				t.Errorf("%s %q refused: %v", c.name, v, err)
			}
		}
		for _, v := range c.bad {
			err := c.check(v)
			if err == nil {
				t.Errorf("%s %q accepted", c.name, v)
				continue
			}
			if CodeOf(err) != InvalidInput {
				t.Errorf("%s %q: code %s", c.name, v, CodeOf(err))
			}
		}
	}
	err := CheckURL("http://dl.example/bin?token=SENTINEL-url")
	if err == nil || strings.Contains(err.Error(), "SENTINEL") || !strings.Contains(err.Error(), "dl.example") {
		t.Errorf("url message %v: want the host and never the query", err)
	}
}

// TestCheckBootstrapNamesTheField: a whole request's first fault comes back
// with the field as the Terraform layer spells it.
func TestCheckBootstrapNamesTheField(t *testing.T) {
	ok := BootstrapRequest{Hostname: "db-1", Image: "Ubuntu-2404-noble-amd64-base", Disks: DisksAuto,
		Files:     []File{{Path: "/etc/a", Mode: "0600", Ref: "env://A"}},
		FirstBoot: &FirstBoot{URL: "https://dl.example/agent", SHA256: strings.Repeat("0", 64), Command: []string{"/usr/local/bin/agent", "--up"}}}
	if err := CheckBootstrap(ok); err != nil {
		t.Fatalf("a good request refused: %v", err)
	}
	for want, change := range map[string]func(*BootstrapRequest){
		"hostname":              func(r *BootstrapRequest) { r.Hostname = "a b" },
		"files[1].path":         func(r *BootstrapRequest) { r.Files = append(r.Files, File{Path: "x", Mode: "0600", Ref: "env://B"}) },
		"files[0]":              func(r *BootstrapRequest) { r.Files[0].Value = []byte("v") },
		"first_boot.command":    func(r *BootstrapRequest) { r.FirstBoot.Command = nil },
		"first_boot.command[0]": func(r *BootstrapRequest) { r.FirstBoot.Command = []string{"agent"} },
		"first_boot.command[1]": func(r *BootstrapRequest) { r.FirstBoot.Command[1] = "a;b" },
		"ready_command[1]":      func(r *BootstrapRequest) { r.ReadyCommand = []string{"/bin/true", "a b"} },
	} {
		r := ok
		r.Files = append([]File(nil), ok.Files...)
		fb := *ok.FirstBoot
		fb.Command = append([]string(nil), ok.FirstBoot.Command...)
		r.FirstBoot = &fb
		change(&r)
		if got := FieldOf(CheckBootstrap(r)); got != want {
			t.Errorf("field %q, want %q", got, want)
		}
	}
}
