package provider

import (
	"maps"
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestSettingEnvNames: each adapter's credentials fall back on the
// variables its official provider's users already set (Robot: CAPH's).
func TestSettingEnvNames(t *testing.T) {
	want := map[string]string{
		"hcloud.token": "HCLOUD_TOKEN", "hcloud.endpoint": "HCLOUD_ENDPOINT",
		"proxmox.api_token": "PROXMOX_VE_API_TOKEN", "proxmox.endpoint": "PROXMOX_VE_ENDPOINT",
		"robot.user": "HETZNER_ROBOT_USER", "robot.password": "HETZNER_ROBOT_PASSWORD",
	}
	got := map[string]string{}
	for _, def := range DefaultRegistry().Definitions() {
		for _, s := range def.Settings {
			if s.Env != "" {
				got[def.Kind+"."+s.Name] = s.Env
			}
		}
	}
	if !maps.Equal(got, want) {
		t.Errorf("settings' variables %v, want %v", got, want)
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
	for _, def := range DefaultRegistry().Definitions() {
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
