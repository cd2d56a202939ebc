package adapter

import (
	"context"
	"errors"
	"strings"
	"testing"
)

func testDefinition() Definition {
	return Definition{
		Kind: "demo",
		Settings: []Setting{
			{Name: "token", Required: true, Role: RoleSecret, Description: "a secret reference"},
			{Name: "location", Default: "fsn1", Role: RoleLocation},
			{Name: "endpoint", Role: RoleEndpoint, Scope: true, Default: "https://api.example/v1", Check: func(v string) error {
				if !strings.HasPrefix(v, "https://") {
					return errors.New("must be an https URL")
				}
				return nil
			}},
		},
		New: func(map[string]string, Env) (Adapter, error) { return nil, nil },
	}
}

func TestRegistryLocate(t *testing.T) {
	r := NewRegistry(testDefinition())
	l, err := r.Locate("demo", map[string]string{"token": "env://T"})
	if err != nil {
		t.Fatal(err)
	}
	if l.Settings["location"] != "fsn1" || l.Settings["endpoint"] != "https://api.example/v1" {
		t.Fatalf("defaults not applied: %v", l.Settings)
	}
	scope, _ := r.Scope(l)
	other, _ := r.Locate("demo", map[string]string{"token": "env://OTHER", "location": "nbg1"})
	if s2, _ := r.Scope(other); s2 != scope {
		t.Fatal("token reference and location must not change the scope")
	}
	cases := map[string]struct {
		kind     string
		settings map[string]string
		field    string
		want     string
	}{
		"unknown kind":    {"nope", nil, "", "known adapters: demo"},
		"missing token":   {"demo", map[string]string{}, "token", "need"},
		"raw token":       {"demo", map[string]string{"token": sentinel}, "token", "not a secret reference"},
		"unknown setting": {"demo", map[string]string{"token": "env://T", "colour": "red"}, "colour", "known: token, location, endpoint"},
		"bad endpoint":    {"demo", map[string]string{"token": "env://T", "endpoint": "http://x"}, "endpoint", "https"},
	}
	for name, c := range cases {
		_, err := r.Locate(c.kind, c.settings)
		if !Is(err, InvalidConfig) || FieldOf(err) != c.field || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), sentinel) {
			t.Errorf("%s: err=%v field=%q", name, err, FieldOf(err))
		}
	}
}

func TestRegistryRefusesDuplicateKinds(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("a kind registered twice must panic at start-up")
		}
	}()
	NewRegistry(testDefinition(), testDefinition())
}

// TestDefinitionRoles: the Terraform layer finds a setting by its role, so
// a setting may be called anything; a role that names one value is given
// to one setting at most, and an account block to one kind.
func TestDefinitionRoles(t *testing.T) {
	d := testDefinition()
	d.Settings[1].Name, d.Settings[2].Name = "region", "api_url"
	r := NewRegistry(d)
	l, err := r.Locate("demo", map[string]string{"token": "env://T", "region": "nbg1"})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.Value(l, RoleLocation); got != "nbg1" {
		t.Errorf("location by role: %q", got)
	}
	if got := d.Value(l.Settings, RoleEndpoint); got != "https://api.example/v1" {
		t.Errorf("endpoint by role: %q", got)
	}
	if s, ok := d.Setting(RoleSecret); !ok || s.Name != "token" || !s.IsSecret() {
		t.Errorf("secret by role: %+v %v", s, ok)
	}
	if got := r.Value(Locator{Kind: "nope"}, RoleLocation); got != "" {
		t.Errorf("unknown kind: %q", got)
	}
	if d.BlockName() != "demo" {
		t.Errorf("block of a definition without one: %q", d.BlockName())
	}
	mustPanic := func(what string, defs ...Definition) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Errorf("%s must panic at start-up", what)
			}
		}()
		NewRegistry(defs...)
	}
	two := testDefinition()
	two.Settings[0].Role = RoleLocation
	mustPanic("two location settings", two)
	other := testDefinition()
	other.Kind, other.Block = "other", "demo"
	mustPanic("two kinds with one block", testDefinition(), other)
}

// TestRegistryNotes: each backend's note on a field documents it under the
// backend's account block; a backend without one adds nothing.
func TestRegistryNotes(t *testing.T) {
	a, b := testDefinition(), testDefinition()
	b.Kind, b.Block = "other", "other_cloud"
	b.Notes = map[string]string{FieldOfferID: "the plan name, e.g. `small`."}
	r := NewRegistry(a, b)
	if got, want := r.Notes(FieldOfferID), " On `other_cloud` accounts: the plan name, e.g. `small`."; got != want {
		t.Errorf("notes %q, want %q", got, want)
	}
	if got := r.Notes(FieldImage); got != "" {
		t.Errorf("notes of a field nobody notes: %q", got)
	}
}

func TestAccountsOpenCachesPerLocator(t *testing.T) {
	opened := 0
	d := testDefinition()
	d.New = func(map[string]string, Env) (Adapter, error) { opened++; return &fakeAdapter{}, nil }
	accts := NewAccounts(NewRegistry(d), Env{Secrets: SecretResolver{}})
	l, _ := accts.Registry.Locate("demo", map[string]string{"token": "env://T"})
	a1, _, err := accts.Open(l.String())
	a2, _, _ := accts.Open(l.String())
	if err != nil || a1 != a2 || opened != 1 {
		t.Fatalf("err=%v same=%v opened=%d", err, a1 == a2, opened)
	}
	if _, _, err := accts.Open("garbage"); !Is(err, InvalidInput) {
		t.Fatalf("err=%v", err)
	}
	_ = context.Background()
}
