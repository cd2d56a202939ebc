package adapter_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// depguardRule is a rule's name line in .golangci.yml's depguard rules, and
// sharedFiles a files pattern of one package below the contract.
var (
	depguardRule = regexp.MustCompile(`^ {8}([a-z0-9-]+):$`)
	sharedFiles  = regexp.MustCompile(`^ +- "\*\*/internal/adapter/[a-z0-9]+/`)
)

// TestDocNamesPackageRules: every depguard rule about one package below the
// contract (a shared package such as rest or adaptertest, or one adapter)
// is named in this package's documentation, the map of the layers, so the
// map knows each import rule the linter holds.
func TestDocNamesPackageRules(t *testing.T) {
	cfg, err := os.ReadFile(filepath.Join("..", "..", ".golangci.yml"))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(strings.ReplaceAll(string(doc), "//", "")), " ")
	rules, rule := 0, ""
	for line := range strings.Lines(string(cfg)) {
		if m := depguardRule.FindStringSubmatch(strings.TrimRight(line, "\n")); m != nil {
			rule = m[1]
			continue
		}
		if rule != "" && sharedFiles.MatchString(line) {
			rules++
			if !strings.Contains(text, rule) {
				t.Errorf("depguard's %s is about a package below the contract, but internal/adapter's documentation does not name it", rule)
			}
			rule = ""
		}
	}
	if rules < 4 {
		t.Errorf("found %d rules about the packages below the contract, want at least 4 (rest, adaptertest, marks, hcloud); the scan no longer reads .golangci.yml", rules)
	}
}
