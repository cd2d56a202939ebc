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
			{Name: "token", Required: true, Secret: true, Description: "a secret reference"},
			{Name: "location", Default: "fsn1"},
			{Name: "endpoint", Scope: true, Default: "https://api.example/v1", Check: func(v string) error {
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
