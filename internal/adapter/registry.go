package adapter

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"time"
)

// Env is what the Terraform layer hands an adapter when opening an account.
type Env struct {
	Secrets   Secrets
	Clock     Clock
	UserAgent string
	// RequestTimeout, when positive, replaces the adapter's own bound on
	// every single backend request (rule 7, honour the context, in the
	// package documentation); tests shorten it so a silent endpoint costs
	// them milliseconds.
	RequestTimeout time.Duration
	// Log receives the adapter's log lines; NopLogger when nil.
	Log Logger
}

// Definition describes one adapter kind: everything the Terraform layer
// needs to offer it, so that the resource packages name no backend and
// adding an adapter touches none of them.
type Definition struct {
	Kind string
	// Description says in one sentence what the adapter reaches.
	Description string
	// Block is the attribute of compute_provider_account that configures an
	// account of this kind, a name a reader recognises where the kind is
	// terse ("hetzner_cloud" for "hcloud"); the kind when empty.
	Block string
	// BlockDescription documents that attribute (markdown); Description
	// when empty.
	BlockDescription string
	Capabilities     Capabilities
	Settings         []Setting
	// Notes say what the contract's fields are on this backend, for the
	// documentation of the attributes that show them, as phrases ("the
	// server type name, e.g. `cx22`"), and how a boot into its rescue system
	// goes. NoteKeys lists and documents every key; no other is read.
	Notes map[string]string
	// Rules are the backend's rules for names, labels and machine ids.
	Rules Rules
	// MarkInName says the adapter keeps its mark in the machine's name (a
	// Robot server name, the only thing Robot stores about a server), which
	// users rename by hand in the backend's panel as a matter of course. A
	// machine that lost its mark while a state held it (the state has a
	// claim) is then drift: the plan warns, and the next apply writes the
	// mark back with the state's claim (UpdateRequest.Mark). Elsewhere the
	// mark is a label or tag nobody removes by chance, and such a machine is
	// left alone instead.
	MarkInName bool
	// New builds an adapter for settings already checked against Settings,
	// defaults applied. It must not call the backend.
	New func(settings map[string]string, env Env) (Adapter, error)
}

// MarkLost reports whether m, read for a state that holds it with claim,
// lost a mark this adapter writes back (MarkInName): drift the plan warns
// of and the next apply mends, rather than a machine out of the provider's
// hands.
func (d Definition) MarkLost(m Machine, claim string) bool {
	return d.MarkInName && !m.Managed && claim != ""
}

// BlockName is the account attribute that configures this kind.
func (d Definition) BlockName() string {
	if d.Block != "" {
		return d.Block
	}
	return d.Kind
}

// BlockDoc is the markdown that documents the account attribute.
func (d Definition) BlockDoc() string {
	if d.BlockDescription != "" {
		return d.BlockDescription
	}
	return d.Description
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

// Normalize checks settings against the manifest and applies defaults,
// those of settings with Env from the environment lookup reads (nil: none
// set). Errors are InvalidConfig with Field set to the setting's name.
func (d Definition) Normalize(settings map[string]string, lookup EnvLookup) (map[string]string, error) {
	out := map[string]string{}
	for name := range settings {
		if !slices.ContainsFunc(d.Settings, func(s Setting) bool { return s.Name == name }) {
			return nil, Errorf(InvalidConfig, "%s accounts have no setting %s; known: %s", d.Kind, Quoted(Redacted(name)), strings.Join(d.settingNames(), ", ")).WithField(name)
		}
	}
	for _, s := range d.Settings {
		v, fromEnv := settings[s.Name], false
		if v == "" {
			v, fromEnv = s.Fallback(lookup)
		}
		if v == "" {
			if s.Required {
				return nil, Errorf(InvalidConfig, "%s accounts need %q: %s%s", d.Kind, s.Name, s.Description, envWayOut(s)).WithField(s.Name)
			}
			continue
		}
		// A value from the environment is named by its variable, since
		// the configuration the user reads does not hold it.
		// The value is shown as messages show any value (Redacted), and
		// never a secret's, which ParseRef and Check leave out anyway.
		name := s.Name
		if fromEnv {
			name = fmt.Sprintf("%s (left out, so taken from the environment variable %s)", s.Name, s.Env)
			if !s.IsSecret() {
				name = fmt.Sprintf("%s (left out, so taken from the environment variable %s = %s)", s.Name, s.Env, Quoted(Redacted(v)))
			}
		}
		if s.IsSecret() {
			if _, _, err := ParseRef(v); err != nil {
				return nil, Errorf(InvalidConfig, "%s: %s", name, MessageOf(err)).WithField(s.Name)
			}
		}
		if s.Check != nil {
			if err := s.Check(v); err != nil {
				return nil, Errorf(InvalidConfig, "%s: %v", name, messageOf(err)).WithField(s.Name)
			}
		}
		out[s.Name] = v
	}
	return out, nil
}

// envWayOut is the way out of a required setting that neither the
// configuration nor its variable gives: "; set it, or set the environment
// variable NAME where Terraform runs".
func envWayOut(s Setting) string {
	if s.Env == "" {
		return ""
	}
	return fmt.Sprintf("; set it, or set the environment variable %s where Terraform runs", s.Env)
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

// Registry holds the adapter kinds the provider ships, in the order they
// were registered (NewRegistry's arguments). That order is the one
// documented order of the kinds: Definitions and Kinds list them in it, so
// the account blocks, the documentation that goes through every backend and
// the messages that name them all follow it, and a new backend appears
// where its registry line puts it, whatever its name. The order enters
// nothing a plan compares (account ids carry their own kind, and the
// account's schema is a set of named attributes), so reordering changes
// documentation and messages only. The first definition registered is the
// example (Example) that documentation and messages show where they need
// one account.
type Registry struct {
	defs  map[string]Definition
	order []string
	// LookupEnv is the environment settings left out fall back on
	// (Setting.Env); os.LookupEnv when nil. Tests set it rather than the
	// process's environment.
	LookupEnv EnvLookup
}

// Environment is the environment the registry's accounts fall back on:
// LookupEnv, or the process's.
func (r *Registry) Environment() EnvLookup {
	if r.LookupEnv != nil {
		return r.LookupEnv
	}
	return os.LookupEnv
}

// NewRegistry registers definitions in the order given, the first being the
// example (see Registry); a kind or an account block listed twice, a unique
// role given to two settings, or a note whose key is none of NoteKeys is a
// programming error and panics at start-up.
func NewRegistry(defs ...Definition) *Registry {
	r := &Registry{defs: map[string]Definition{}}
	blocks := map[string]string{}
	for _, d := range defs {
		if _, dup := r.defs[d.Kind]; dup {
			panic(fmt.Sprintf("adapter kind %q registered twice", d.Kind))
		}
		if other, dup := blocks[d.BlockName()]; dup {
			panic(fmt.Sprintf("adapter kinds %q and %q both configure account block %q", other, d.Kind, d.BlockName()))
		}
		d.checkRoles()
		for key := range d.Notes {
			if !slices.Contains(NoteKeys, key) {
				panic(fmt.Sprintf("adapter kind %q has a note %q, which is none of adapter.NoteKeys and which nothing reads", d.Kind, key))
			}
		}
		for _, st := range d.Settings {
			if st.Name == locatorKind || st.Name == locatorName {
				panic(fmt.Sprintf("adapter kind %q has a setting %q, a name the account id keeps for itself", d.Kind, st.Name))
			}
		}
		r.defs[d.Kind] = d
		r.order = append(r.order, d.Kind)
		blocks[d.BlockName()] = d.Kind
	}
	return r
}

// Definitions lists the registered definitions in registration order.
func (r *Registry) Definitions() []Definition {
	defs := make([]Definition, 0, len(r.order))
	for _, k := range r.order {
		defs = append(defs, r.defs[k])
	}
	return defs
}

// Kinds lists the registered kinds in registration order.
func (r *Registry) Kinds() []string { return slices.Clone(r.order) }

// Example is the definition documentation and messages take where they
// show one account (an example id, the smallest block): the first one
// registered, never the one whose name happens to sort first. ok is false
// for an empty registry.
func (r *Registry) Example() (d Definition, ok bool) {
	if len(r.order) == 0 {
		return Definition{}, false
	}
	return r.defs[r.order[0]], true
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
	norm, err := d.Normalize(settings, r.Environment())
	if err != nil {
		return Locator{}, err
	}
	return Locator{Kind: kind, Settings: norm}, nil
}

// Checked is l with its settings checked, defaults applied and the
// endpoint in canonical form (Canonical), as the account computes its id
// from the same configuration: an id written by hand (an import id) and
// the account's own then compare equal. The name is kept.
func (r *Registry) Checked(l Locator) (Locator, error) {
	c, err := r.Locate(l.Kind, l.Settings)
	if err != nil {
		return Locator{}, err
	}
	c.Name = l.Name
	return r.Canonical(c), nil
}

// Describe names the account for a message, `account "prod-cloud"
// (hetzner_cloud)`; see Label.
func (r *Registry) Describe(l Locator) string { return "account " + r.Label(l) }

// DescribeID is Describe for an account id; see LabelID.
func (r *Registry) DescribeID(id string) string { return "account " + r.LabelID(id) }

// Label is what follows the word "account" in a message: the account's
// name, its block and the endpoint it reaches,
// `"prod-cloud" (hetzner_cloud at https://api.hetzner.cloud/v1)`; without
// the name for an id written before accounts carried it. Never the whole
// id, which a reader would have to search for the one word that tells
// accounts apart; the endpoint because two accounts of one name (before
// and after a move) differ there.
func (r *Registry) Label(l Locator) string {
	var what string
	if d, ok := r.defs[l.Kind]; ok {
		what = d.BlockName()
		if ep := d.Value(l.Settings, RoleEndpoint); ep != "" {
			what += " at " + Redacted(CanonicalEndpoint(ep))
		}
	} else {
		what = "kind " + Quoted(Redacted(l.Kind))
	}
	if l.Name != "" {
		return fmt.Sprintf("%q (%s)", l.Name, what)
	}
	return what
}

// LabelID is Label for an account id; one that is no account id at all is
// shown redacted (RedactID), since it may be a secret pasted in the wrong
// place.
func (r *Registry) LabelID(id string) string {
	if l, err := ParseLocator(id); err == nil {
		return r.Label(l)
	}
	return Quoted(RedactID(id))
}

// Open builds the adapter for a locator, and refuses one that does not
// implement what its definition declares (Capabilities.Implemented).
func (r *Registry) Open(l Locator, env Env) (Adapter, error) {
	d, err := r.Definition(l.Kind)
	if err != nil {
		return nil, err
	}
	norm, err := d.Normalize(l.Settings, r.Environment())
	if err != nil {
		return nil, err
	}
	if env.Clock == nil {
		env.Clock = RealClock{}
	}
	if env.Log == nil {
		env.Log = NopLogger{}
	}
	a, err := d.New(norm, env)
	if err != nil {
		return nil, err
	}
	if err := d.Capabilities.Implemented(d.Kind, a); err != nil {
		return nil, err
	}
	return a, nil
}

// Value is the value of the locator's setting with role; "" when its kind
// is not known or has no such setting.
func (r *Registry) Value(l Locator, role SettingRole) string {
	d, ok := r.defs[l.Kind]
	if !ok {
		return ""
	}
	return d.Value(l.Settings, role)
}

// Scope returns the locator's identity for idempotency keys.
func (r *Registry) Scope(l Locator) (string, error) {
	d, err := r.Definition(l.Kind)
	if err != nil {
		return "", err
	}
	return d.Scope(l.Settings), nil
}

// Notes documents what field is on each registered backend that says, for
// the attribute that shows it: " On `hetzner_cloud` accounts: the server
// type name, e.g. `cx22`." with a leading space, one sentence per backend;
// "" when none says.
func (r *Registry) Notes(field string) string {
	var out strings.Builder
	for _, d := range r.Definitions() {
		if n := d.Notes[field]; n != "" {
			fmt.Fprintf(&out, " On `%s` accounts: %s.", d.BlockName(), strings.TrimSuffix(n, "."))
		}
	}
	return out.String()
}
