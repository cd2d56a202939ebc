package hcloud

import (
	"slices"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

func TestDefinitionSettings(t *testing.T) {
	d := Definition()
	if d.Kind != "hcloud" || !slices.Equal(d.ScopeKeys(), []string{"endpoint"}) {
		t.Errorf("kind %q scope %v", d.Kind, d.ScopeKeys())
	}
	if d.BlockName() != "hetzner_cloud" || d.BlockDoc() == "" {
		t.Errorf("account block %q, described %q", d.BlockName(), d.BlockDoc())
	}
	for role, name := range map[adapter.SettingRole]string{adapter.RoleSecret: "token", adapter.RoleLocation: "location", adapter.RoleEndpoint: "endpoint"} {
		if s, ok := d.Setting(role); !ok || s.Name != name {
			t.Errorf("role %s: setting %q, want %q", role, s.Name, name)
		}
	}
	norm, err := d.Normalize(map[string]string{"token": "env://HCLOUD_TOKEN"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if norm["location"] != "fsn1" || norm["endpoint"] != "https://api.hetzner.cloud/v1" {
		t.Errorf("defaults: %v", norm)
	}
	if _, err := d.New(norm, adapter.Env{}); err != nil {
		t.Errorf("New must not need the backend: %v", err)
	}

	tests := []struct {
		name     string
		settings map[string]string
		field    string
		contains string
	}{
		{"token pasted instead of a reference", map[string]string{"token": "LRK9DAWQ1ZAEFSrCNEEz"}, "token", "not a secret reference"},
		{"http to a remote host", map[string]string{"token": "env://T", "endpoint": "http://api.example.com/v1"}, "endpoint", "unencrypted"},
		{"other scheme", map[string]string{"token": "env://T", "endpoint": "ftp://127.0.0.1/v1"}, "endpoint", `scheme "ftp"`},
		{"not a URL", map[string]string{"token": "env://T", "endpoint": "api.hetzner.cloud"}, "endpoint", "not a URL with a scheme and a host"},
		{"no host", map[string]string{"token": "env://T", "endpoint": "https://"}, "endpoint", "names no host"},
		{"a query", map[string]string{"token": "env://T", "endpoint": "https://api.example.com/v1?x=1"}, "endpoint", "not a base URL"},
		{"credentials in the URL", map[string]string{"token": "env://T", "endpoint": "https://user:pw@api.example.com/v1"}, "endpoint", "carries credentials"},
		{"bad location", map[string]string{"token": "env://T", "location": "Falkenstein 1"}, "location", "not a Hetzner Cloud location name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := d.Normalize(tt.settings, nil)
			checkClassified(t, err, adapter.InvalidConfig, tt.field, []string{tt.contains})
			if strings.Contains(err.Error(), "LRK9DAWQ1ZAEFSrCNEEz") || strings.Contains(err.Error(), ":pw@") {
				t.Errorf("the error repeats a secret: %v", err)
			}
		})
	}
	for _, ok := range []string{"https://api.hetzner.cloud/v1", "https://proxy.example.com/hcloud/v1", "http://127.0.0.1:8080/v1", "http://[::1]:8080/v1", "http://localhost:8080/v1"} {
		if _, err := d.Normalize(map[string]string{"token": "env://T", "endpoint": ok}, nil); err != nil {
			t.Errorf("endpoint %s: %v", ok, err)
		}
	}
}

// TestDefinitionEnvDefaults: left out, the token is the reference the
// hcloud provider's users already set, never its value, and the endpoint is
// HCLOUD_ENDPOINT's value when it is set, else the public API; what is
// written always wins.
func TestDefinitionEnvDefaults(t *testing.T) {
	env := map[string]string{"HCLOUD_TOKEN": "SENTINEL-hcloud-token-value", "HCLOUD_ENDPOINT": ""}
	lookup := adapter.MapEnv(env)
	d := Definition()
	norm, err := d.Normalize(map[string]string{}, lookup)
	if err != nil {
		t.Fatal(err)
	}
	if norm["token"] != "env://HCLOUD_TOKEN" || norm["endpoint"] != "https://api.hetzner.cloud/v1" {
		t.Errorf("defaults with HCLOUD_ENDPOINT empty: %v", norm)
	}
	env["HCLOUD_ENDPOINT"] = "http://127.0.0.1:4000/v1"
	if norm, _ := d.Normalize(map[string]string{}, lookup); norm["endpoint"] != "http://127.0.0.1:4000/v1" {
		t.Errorf("endpoint with HCLOUD_ENDPOINT set: %v", norm)
	}
	written := map[string]string{"token": "env://OTHER", "endpoint": "https://proxy.example.com/v1"}
	if norm, _ := d.Normalize(written, lookup); norm["token"] != written["token"] || norm["endpoint"] != written["endpoint"] {
		t.Errorf("written settings lost to the environment: %v", norm)
	}
	env["HCLOUD_ENDPOINT"] = "http://api.example.com/v1"
	_, err = d.Normalize(map[string]string{}, lookup)
	checkClassified(t, err, adapter.InvalidConfig, "endpoint", []string{`HCLOUD_ENDPOINT = "http://api.example.com/v1"`, "unencrypted"})
	// The value from the environment is shown as any value is: redacted.
	env["HCLOUD_ENDPOINT"] = "https://user:SENTINEL-pw@api.example.com/v1"
	_, err = d.Normalize(map[string]string{}, lookup)
	checkClassified(t, err, adapter.InvalidConfig, "endpoint", []string{"HCLOUD_ENDPOINT", "carries credentials"})
	if strings.Contains(err.Error(), "SENTINEL-pw") {
		t.Errorf("the error repeats the password of the endpoint: %v", err)
	}
}

// TestDefinitionRules: the rules the definition declares are the API's, as
// the emulator enforces them, and each says what it allows.
func TestDefinitionRules(t *testing.T) {
	r := Definition().Rules
	for _, rule := range []adapter.Rule{r.MachineID, r.MachineName, r.LabelKey, r.LabelValue} {
		if rule.Check == nil || rule.Text == "" {
			t.Fatalf("a rule without a check or a text: %+v", rule)
		}
	}
	long := strings.Repeat("a", 64)
	cases := []struct {
		rule    adapter.Rule
		name    string
		allowed []string
		refused []string
	}{
		{r.MachineID, "machine id", []string{"1", "4711", "9223372036854775807"}, []string{"", "0", "-1", "abc", "42abc", "9223372036854775808"}},
		{r.MachineName, "name", []string{"web-1", "a", "web.example.com", "1web", strings.Repeat("a", 63)},
			[]string{"", "web_1", "-web", "web-", "web..1", "web 1", "wéb", long, strings.Repeat("a.", 127) + "a"}},
		{r.LabelKey, "label key", []string{"role", "a", "example.com/role", "my_key.x-y", strings.Repeat("a", 63)},
			[]string{"", "-role", "role-", "has space", long, "Example.com/role", "/role", "example.com/", "hetzner.cloud/x", "compute.seedcompute.io/managed"}},
		{r.LabelValue, "label value", []string{"", "web", "a.b_c-d", strings.Repeat("a", 63)}, []string{"-web", "web-", "has space", long, "a/b"}},
	}
	for _, c := range cases {
		for _, v := range c.allowed {
			if !c.rule.Allows(v) {
				t.Errorf("%s %q refused", c.name, v)
			}
		}
		for _, v := range c.refused {
			if c.rule.Allows(v) {
				t.Errorf("%s %q allowed", c.name, v)
			}
		}
	}
	if (adapter.Rule{}).Allows("anything") != true {
		t.Error("an undeclared rule must allow every value")
	}
}

// TestDefinitionRescueKeys: a rescue_ssh_keys value that names no key is
// refused on the setting, one that names keys passes, and the account id
// holds each list in one spelling, so respacing it is no other account.
func TestDefinitionRescueKeys(t *testing.T) {
	d := Definition()
	for _, v := range []string{",", " ", "  ,  "} {
		_, err := d.Normalize(map[string]string{"token": "env://T", settingRescueKeys: v}, nil)
		checkClassified(t, err, adapter.InvalidConfig, settingRescueKeys, []string{"names no SSH key"})
	}
	for v, canonical := range map[string]string{"ops": "ops", "ops, ci": "ops,ci", "ops, ,ci": "ops,ci", " 4711 ,ops ": "4711,ops"} {
		norm, err := d.Normalize(map[string]string{"token": "env://T", settingRescueKeys: v}, nil)
		if err != nil {
			t.Errorf("%s = %q: %v", settingRescueKeys, v, err)
			continue
		}
		if got := d.Canonical(norm)[settingRescueKeys]; got != canonical {
			t.Errorf("%s = %q is %q in the account id, want %q", settingRescueKeys, v, got, canonical)
		}
		if norm[settingRescueKeys] != v {
			t.Errorf("%s = %q is %q in the account's block, want it as written", settingRescueKeys, v, norm[settingRescueKeys])
		}
	}
}
