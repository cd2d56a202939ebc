package adapter

import (
	"context"
	"errors"
	"slices"
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
	typo := testDefinition()
	typo.Notes = map[string]string{FieldOfferID: "the plan name", "offerid": "the plan name"}
	mustPanic("a note nothing reads", typo)
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

// TestSettingEnvDefaults: a setting the configuration leaves out falls back
// on its environment variable. A secret's fallback is the reference, never
// the value, whether the variable is set or not; a plain setting's is the
// variable's value, else its Default; a written value always wins.
func TestSettingEnvDefaults(t *testing.T) {
	d := testDefinition()
	d.Settings[0].Env = "DEMO_TOKEN"
	d.Settings[2].Env = "DEMO_ENDPOINT"
	d.Settings = append(d.Settings, Setting{Name: "project", Required: true, Env: "DEMO_PROJECT"})
	env := map[string]string{"DEMO_TOKEN": sentinel, "DEMO_ENDPOINT": "", "DEMO_PROJECT": "p1"}
	r := NewRegistry(d)
	r.LookupEnv = MapEnv(env)
	l, err := r.Locate("demo", map[string]string{})
	if err != nil {
		t.Fatal(err)
	}
	if l.Settings["token"] != "env://DEMO_TOKEN" || l.Settings["endpoint"] != "https://api.example/v1" || l.Settings["project"] != "p1" {
		t.Errorf("fallbacks: %v", l.Settings)
	}
	if strings.Contains(l.String(), sentinel) {
		t.Errorf("the id holds the secret: %s", l)
	}
	env["DEMO_ENDPOINT"] = "https://env.example/v1"
	written := map[string]string{"token": "env://OTHER", "endpoint": "https://written.example/v1", "project": "p2"}
	if l, _ := r.Locate("demo", written); l.Settings["token"] != "env://OTHER" || l.Settings["endpoint"] != written["endpoint"] || l.Settings["project"] != "p2" {
		t.Errorf("written settings lost to the environment: %v", l.Settings)
	}
	if l, _ := r.Locate("demo", map[string]string{}); l.Settings["endpoint"] != "https://env.example/v1" {
		t.Errorf("endpoint with its variable set: %v", l.Settings)
	}
	env["DEMO_ENDPOINT"] = "http://env.example/v1"
	if _, err := r.Locate("demo", map[string]string{}); FieldOf(err) != "endpoint" || !strings.Contains(err.Error(), "environment variable DEMO_ENDPOINT") {
		t.Errorf("a refused value from the environment does not name its variable: %v", err)
	}
	clear(env)
	_, err = r.Locate("demo", map[string]string{})
	if FieldOf(err) != "project" || !strings.Contains(err.Error(), "set the environment variable DEMO_PROJECT") {
		t.Errorf("a required setting without its variable: %v", err)
	}
	if l, err := r.Locate("demo", map[string]string{"project": "p"}); err != nil || l.Settings["token"] != "env://DEMO_TOKEN" {
		t.Errorf("a secret's fallback needs no variable at plan time: %v %v", l.Settings, err)
	}
}

// TestRegistryEnvironment: a registry without LookupEnv falls back on the
// process's environment, as a provider binary does.
func TestRegistryEnvironment(t *testing.T) {
	d := testDefinition()
	d.Settings = append(d.Settings, Setting{Name: "project", Required: true, Env: "DEMO_REGISTRY_PROJECT"})
	t.Setenv("DEMO_REGISTRY_PROJECT", "from-the-process")
	l, err := NewRegistry(d).Locate("demo", map[string]string{"token": "env://T"})
	if err != nil || l.Settings["project"] != "from-the-process" {
		t.Errorf("the process's environment: %v %v", l.Settings, err)
	}
}

// TestRegistryKeepsRegistrationOrder: kinds and definitions come in the
// order they were registered, and the example is the first registered, so
// that a backend's name decides neither where its block is listed nor
// whether it is the example of documentation and messages.
func TestRegistryKeepsRegistrationOrder(t *testing.T) {
	def := func(kind string) Definition {
		d := testDefinition()
		d.Kind = kind
		return d
	}
	r := NewRegistry(def("zebra"), def("aardvark"), def("mole"))
	if got := r.Kinds(); !slices.Equal(got, []string{"zebra", "aardvark", "mole"}) {
		t.Errorf("Kinds: %v, want registration order", got)
	}
	var defs []string
	for _, d := range r.Definitions() {
		defs = append(defs, d.Kind)
	}
	if !slices.Equal(defs, []string{"zebra", "aardvark", "mole"}) {
		t.Errorf("Definitions: %v, want registration order", defs)
	}
	if d, ok := r.Example(); !ok || d.Kind != "zebra" {
		t.Errorf("Example: %q, %t; want the first registered, zebra", d.Kind, ok)
	}
	if _, ok := NewRegistry().Example(); ok {
		t.Error("an empty registry has no example")
	}
}
