package provider

import (
	"maps"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestEnvDefaultsAreDocumented: every setting that falls back on an
// environment variable names it in the generated account page, twice: in
// its attribute's line of the block's nested schema (from the schema, so
// make docs must have run) and in the row of the guide's table of settings
// left out (templates/resources/provider_account.md.tmpl, written by hand),
// so a variable an adapter adds or renames reaches the reader. Which
// variables each adapter reads is its own test's business
// (TestDefinitionEnvDefaults in internal/adapter/*). Only the shipped
// backends are documented: a build with the testbackends tag registers
// more, whose blocks make docs deliberately leaves out.
func TestEnvDefaultsAreDocumented(t *testing.T) {
	raw, err := os.ReadFile("../../docs/resources/provider_account.md")
	if err != nil {
		t.Fatal(err)
	}
	page := string(raw)
	checked := 0
	for _, def := range shipped() {
		block := def.BlockName()
		_, nested, ok := strings.Cut(page, `<a id="nestedatt--`+block+`"></a>`)
		if !ok {
			t.Fatalf("the page has no nested schema for %s; run make docs", block)
		}
		nested, _, _ = strings.Cut(nested, "<a id=")
		for _, s := range def.Settings {
			if s.Env == "" {
				continue
			}
			checked++
			want := "`" + s.Env + "`"
			if line := attributeLine(nested, s.Name); !strings.Contains(line, want) {
				t.Errorf("%s.%s falls back on %s, which its attribute's documentation does not name (run make docs): %q", block, s.Name, s.Env, line)
			}
			if row := tableRow(page, block, s.Name); !strings.Contains(row, s.Env) {
				t.Errorf("%s.%s falls back on %s, which the table of settings left out does not name: %q", block, s.Name, s.Env, row)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no setting falls back on an environment variable; the test checked nothing")
	}
}

// TestSecretsGuideTableMatchesSettings: the secrets guide's "Credentials
// left out" table has one row per setting with an environment variable,
// naming that variable, and no row the settings do not back; users set
// exactly the variables it lists.
func TestSecretsGuideTableMatchesSettings(t *testing.T) {
	const guide = "../../templates/guides/secrets-and-ci.md.tmpl"
	text, err := os.ReadFile(guide)
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(text), "## Credentials left out")
	if !ok {
		t.Fatalf("%s has no section \"Credentials left out\"", guide)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	row := regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\| `([a-z_]+)` \\| (.*) \\|$")
	variable := regexp.MustCompile(`\b[A-Z][A-Z0-9_]+\b`)
	got := map[string]string{}
	for _, m := range row.FindAllStringSubmatch(section, -1) {
		got[m[1]+"."+m[2]] = strings.Join(variable.FindAllString(m[3], -1), " ")
	}
	want := map[string]string{}
	for _, def := range shipped() {
		for _, s := range def.Settings {
			if s.Env != "" {
				want[def.BlockName()+"."+s.Name] = s.Env
			}
		}
	}
	if !maps.Equal(got, want) {
		t.Errorf("%s's table has rows (block.setting: variables) %v, want %v", guide, got, want)
	}
}

// attributeLine is the line of a nested schema that documents attribute
// name: "- `name` (String) …".
func attributeLine(nested, name string) string {
	for _, line := range strings.Split(nested, "\n") {
		if strings.HasPrefix(line, "- `"+name+"` ") {
			return line
		}
	}
	return ""
}

// tableRow is the row of the table of settings left out for a block's
// setting: "| `block` | `a`, `name` | … |".
func tableRow(page, block, name string) string {
	for _, line := range strings.Split(page, "\n") {
		cells := strings.Split(line, "|")
		if len(cells) > 3 && strings.TrimSpace(cells[1]) == "`"+block+"`" && strings.Contains(cells[2], "`"+name+"`") {
			return line
		}
	}
	return ""
}
