package adapter

import (
	"strings"
	"testing"
)

// TestLabelNamesTheAccount: messages name an account by its name, block and
// canonical endpoint, an id of the older form by its block and endpoint,
// and never repeat a secret pasted into the endpoint or the name.
func TestLabelNamesTheAccount(t *testing.T) {
	r := NewRegistry(testDefinition())
	named := Locator{Kind: "demo", Name: "prod", Settings: map[string]string{"endpoint": "HTTPS://API.example:443/v1/", "token": "env://T"}}
	for _, c := range []struct {
		l    Locator
		want string
	}{
		{named, `"prod" (demo at https://api.example/v1)`},
		{Locator{Kind: "demo", Settings: named.Settings}, `demo at https://api.example/v1`},
		{Locator{Kind: "demo", Name: "prod"}, `"prod" (demo)`},
		{Locator{Kind: "gone"}, `kind "gone"`},
		{Locator{Kind: "demo", Name: "p", Settings: map[string]string{"endpoint": "https://u:" + sentinel + "@h/v1"}}, `"p" (demo at https://…@h/v1)`},
	} {
		if got := r.Label(c.l); got != c.want {
			t.Errorf("Label(%+v) = %s, want %s", c.l, got, c.want)
		}
	}
	if got := r.DescribeID(named.String()); got != `account "prod" (demo at https://api.example/v1)` {
		t.Errorf("DescribeID = %s", got)
	}
	if got := r.LabelID(sentinel); strings.Contains(got, "SENTINEL") {
		t.Errorf("LabelID of no id at all repeats it: %s", got)
	}
}

// TestChangesSaysWhatChanged: the refusal of an account change names the
// changed members with their values as messages show them, and not a
// difference in the endpoint's spelling alone.
func TestChangesSaysWhatChanged(t *testing.T) {
	r := NewRegistry(testDefinition())
	from := Locator{Kind: "demo", Name: "prod", Settings: map[string]string{"endpoint": "https://api.example/v1", "token": "env://T", "location": "fsn1"}}
	to := Locator{Kind: "demo", Name: "prod", Settings: map[string]string{"endpoint": "https://api.example/v1/", "token": "env://T2", "location": "fsn1"}}
	if got := r.Changes(from, to); got != `token "env://T" → "env://T2"` {
		t.Errorf("Changes = %s", got)
	}
	to.Settings["location"], to.Name = sentinel, "staging"
	got := r.Changes(from, to)
	if strings.Contains(got, "SENTINEL") || !strings.Contains(got, `name "prod" → "staging"`) || !strings.Contains(got, "location") {
		t.Errorf("Changes = %s", got)
	}
	delete(to.Settings, "token")
	if got := r.Changes(from, to); !strings.Contains(got, `token "env://T" → (none)`) {
		t.Errorf("a removed setting: %s", got)
	}
	if got := r.Changes(from, from); got != "" {
		t.Errorf("no change: %q", got)
	}
}

// TestRegistryRefusesSettingsTheIDKeeps: a setting named like a member the
// account id keeps for itself would be lost in the id; it is a programming
// error, found at start-up.
func TestRegistryRefusesSettingsTheIDKeeps(t *testing.T) {
	for _, name := range []string{"kind", "name"} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("a setting named %q was registered", name)
				}
			}()
			d := testDefinition()
			d.Settings = append(d.Settings, Setting{Name: name})
			NewRegistry(d)
		}()
	}
}
