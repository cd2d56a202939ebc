package adapter

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// Setting is one entry of an adapter's manifest: what an account of that kind
// may configure.
type Setting struct {
	Name        string
	Description string
	Required    bool
	Default     string
	// Secret settings hold a secret reference, checked with ParseRef.
	Secret bool
	// Scope settings identify the backend or project; see Locator.Scope.
	Scope bool
	// Check validates a non-empty value; its error message names the way out.
	Check func(value string) error
}

// Env is what the Terraform layer hands an adapter when opening an account.
type Env struct {
	Secrets   Secrets
	Clock     Clock
	UserAgent string
	// RequestTimeout, when positive, replaces the adapter's own bound on
	// every single backend request (rule 7 of the contract); tests shorten
	// it so a silent endpoint costs them milliseconds.
	RequestTimeout time.Duration
	// Log receives the adapter's log lines; NopLogger when nil.
	Log Logger
}

// Definition describes one adapter kind.
type Definition struct {
	Kind         string
	Description  string
	Capabilities Capabilities
	Settings     []Setting
	// Rules are the backend's rules for names, labels and machine ids.
	Rules Rules
	// New builds an adapter for settings already checked against Settings,
	// defaults applied. It must not call the backend.
	New func(settings map[string]string, env Env) (Adapter, error)
}

// ScopeKeys lists the settings that identify the backend.
func (d Definition) ScopeKeys() []string {
	var keys []string
	for _, s := range d.Settings {
		if s.Scope {
			keys = append(keys, s.Name)
		}
	}
	return keys
}

// Normalize checks settings against the manifest and applies defaults. Errors
// are InvalidConfig with Field set to the setting's name.
func (d Definition) Normalize(settings map[string]string) (map[string]string, error) {
	out := map[string]string{}
	for name := range settings {
		if !slices.ContainsFunc(d.Settings, func(s Setting) bool { return s.Name == name }) {
			return nil, Errorf(InvalidConfig, "%s accounts have no setting %s; known: %s", d.Kind, Quoted(Redacted(name)), strings.Join(d.settingNames(), ", ")).WithField(name)
		}
	}
	for _, s := range d.Settings {
		v := settings[s.Name]
		if v == "" {
			v = s.Default
		}
		if v == "" {
			if s.Required {
				return nil, Errorf(InvalidConfig, "%s accounts need %q: %s", d.Kind, s.Name, s.Description).WithField(s.Name)
			}
			continue
		}
		if s.Secret {
			if _, _, err := ParseRef(v); err != nil {
				return nil, Errorf(InvalidConfig, "%s: %s", s.Name, err.(*Error).Message).WithField(s.Name)
			}
		}
		if s.Check != nil {
			if err := s.Check(v); err != nil {
				return nil, Errorf(InvalidConfig, "%s: %v", s.Name, messageOf(err)).WithField(s.Name)
			}
		}
		out[s.Name] = v
	}
	return out, nil
}

func messageOf(err error) string {
	if e, ok := err.(*Error); ok {
		return e.Message
	}
	return err.Error()
}

func (d Definition) settingNames() []string {
	names := make([]string, len(d.Settings))
	for i, s := range d.Settings {
		names[i] = s.Name
	}
	return names
}

// Registry holds the adapter kinds the provider ships.
type Registry struct {
	defs map[string]Definition
}

// NewRegistry registers definitions; a kind listed twice is a programming
// error and panics at start-up.
func NewRegistry(defs ...Definition) *Registry {
	r := &Registry{defs: map[string]Definition{}}
	for _, d := range defs {
		if _, dup := r.defs[d.Kind]; dup {
			panic(fmt.Sprintf("adapter kind %q registered twice", d.Kind))
		}
		r.defs[d.Kind] = d
	}
	return r
}

// Kinds lists the registered kinds, sorted.
func (r *Registry) Kinds() []string {
	return slices.Sorted(func(yield func(string) bool) {
		for k := range r.defs {
			if !yield(k) {
				return
			}
		}
	})
}

// Definition returns the definition of kind, or InvalidConfig naming the
// known kinds.
func (r *Registry) Definition(kind string) (Definition, error) {
	d, ok := r.defs[kind]
	if !ok {
		return Definition{}, Errorf(InvalidConfig, "adapter %q is not known; known adapters: %s", kind, strings.Join(r.Kinds(), ", "))
	}
	return d, nil
}

// Locate checks settings for kind and returns the account's locator.
func (r *Registry) Locate(kind string, settings map[string]string) (Locator, error) {
	d, err := r.Definition(kind)
	if err != nil {
		return Locator{}, err
	}
	norm, err := d.Normalize(settings)
	if err != nil {
		return Locator{}, err
	}
	return Locator{Kind: kind, Settings: norm}, nil
}

// Open builds the adapter for a locator.
func (r *Registry) Open(l Locator, env Env) (Adapter, error) {
	d, err := r.Definition(l.Kind)
	if err != nil {
		return nil, err
	}
	norm, err := d.Normalize(l.Settings)
	if err != nil {
		return nil, err
	}
	if env.Clock == nil {
		env.Clock = RealClock{}
	}
	if env.Log == nil {
		env.Log = NopLogger{}
	}
	return d.New(norm, env)
}

// Scope returns the locator's identity for idempotency keys.
func (r *Registry) Scope(l Locator) (string, error) {
	d, err := r.Definition(l.Kind)
	if err != nil {
		return "", err
	}
	return l.Scope(d.ScopeKeys()), nil
}
