package adapter

import (
	"fmt"
	"slices"
	"strconv"
)

// Setting is one entry of an adapter's manifest: what an account of that kind
// may configure.
type Setting struct {
	Name        string
	Description string
	// Required settings need a value: the configuration's, or else the
	// one Env or Default gives.
	Required bool
	Default  string
	// Env names the environment variable the account falls back on when
	// the configuration leaves the setting out: the one users of the
	// backend's official Terraform provider (or its best-known tool)
	// already set, so that they write nothing more. A secret setting then
	// defaults to the reference env://Env, which is resolved on each
	// request like any reference: the account id and state hold the
	// reference, never the secret, the default is the same wherever it
	// is planned, and an explicit reference always wins. Any other setting
	// takes the variable's value where the account is planned, and the id
	// records it like a written value (a later plan without the variable
	// shows the change); an unset or empty variable leaves it to Default.
	Env string
	// Role says what the setting is to the Terraform layer, which asks for
	// "the endpoint" or "the default location" by role, never by name.
	Role SettingRole
	// Scope settings identify the backend or project; see Locator.Scope.
	// It is apart from Role: an endpoint is scope, and so may be a plain
	// setting such as a project or user name.
	Scope bool
	// Check validates a non-empty value; its error message names the way out.
	Check func(value string) error
	// Canonical rewrites a checked value into the one spelling the account
	// id holds (Definition.Canonical), so that two spellings of one value
	// ("ops, ci" and "ops,ci") are one account and re-point nothing. The
	// account's block keeps the value as written. Nil: as written.
	Canonical func(value string) string
	// Warn says why a valid value deserves a warning, "" when it does not:
	// an option that turns off TLS verification is allowed, but every plan
	// should say what it costs. The sentence names the way out; the account
	// shows it on the setting, with the value, on every plan and apply. It
	// sees the value after defaults, so a risky default warns too.
	Warn func(value string) string
	// Public settings hold nothing a secret could be pasted into by
	// mistake (a certificate's fingerprint, the flavors' JSON): messages
	// repeat their value whole, where any other plain setting's is
	// shown only as Redacted allows.
	Public bool
	// NeededBy are the capabilities that cannot work without this setting,
	// though the account as a whole can: an account that leaves it out is
	// refused them (Lacks) at plan, by the Terraform layer, and by the
	// adapter itself before it writes.
	NeededBy Capabilities
}

// Shown is the setting's value as a message may repeat it.
func (s Setting) Shown(name, value string) string {
	if s.Public {
		return name + " = " + strconv.Quote(value)
	}
	return ShowPlain(name, Redacted(value))
}

// SettingRole is what a setting means beyond its adapter.
type SettingRole string

// The roles a setting can have. The zero role is a plain setting, which only
// its adapter reads.
const (
	RolePlain SettingRole = ""
	// RoleSecret settings hold a secret reference (ParseRef), never the
	// secret: the account shows them, resolves them on each request and
	// names them when a credential is refused. An account may have several.
	RoleSecret SettingRole = "secret"
	// RoleEndpoint is the base URL of the backend's API, named in the way out
	// of a backend that cannot be reached. At most one per adapter.
	RoleEndpoint SettingRole = "endpoint"
	// RoleLocation is where machines go and whose offers are listed when an
	// instance or compute_offers names no location (FieldLocation). At most
	// one per adapter.
	RoleLocation SettingRole = "location"
)

// unique roles may be held by one setting of an adapter at most, so that
// "the endpoint" names one value.
var unique = []SettingRole{RoleEndpoint, RoleLocation, RoleCancelsRental}

// IsSecret reports whether the setting holds a secret reference.
func (s Setting) IsSecret() bool { return s.Role == RoleSecret }

// EnvRef is the reference a secret setting with Env defaults to,
// env://Env; "" for any other setting.
func (s Setting) EnvRef() string {
	if !s.IsSecret() || s.Env == "" {
		return ""
	}
	return "env://" + s.Env
}

// EnvLookup reads an environment variable as os.LookupEnv does. The
// environment a setting falls back on (Setting.Env) is passed in, as
// secrets are (SecretResolver.LookupEnv), so that Normalize and
// Registry.Locate give the same answer for the same arguments and a test
// states the environment it means without touching the process's.
type EnvLookup func(name string) (string, bool)

// MapEnv is the environment vars hold, and nothing else.
func MapEnv(vars map[string]string) EnvLookup {
	return func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	}
}

// Fallback is the value the setting takes when the configuration leaves
// it out, and whether it came from the environment lookup reads (see Env):
// EnvRef for a secret, the variable's value where it is set and not empty,
// else Default. A nil lookup is an environment with no variable set.
func (s Setting) Fallback(lookup EnvLookup) (value string, fromEnv bool) {
	if ref := s.EnvRef(); ref != "" {
		return ref, false
	}
	if s.Env != "" && lookup != nil {
		if v, _ := lookup(s.Env); v != "" {
			return v, true
		}
	}
	return s.Default, false
}

// Defaulted reports whether the setting has a value when the configuration
// leaves it out, from Default or Env: the schema makes it optional.
func (s Setting) Defaulted() bool { return s.Default != "" || s.Env != "" }

// Setting returns the first setting with role.
func (d Definition) Setting(role SettingRole) (Setting, bool) {
	i := slices.IndexFunc(d.Settings, func(s Setting) bool { return s.Role == role })
	if i < 0 {
		return Setting{}, false
	}
	return d.Settings[i], true
}

// Value is the value settings give the setting with role; "" when the
// adapter has no such setting or settings leave it out.
func (d Definition) Value(settings map[string]string, role SettingRole) string {
	s, ok := d.Setting(role)
	if !ok {
		return ""
	}
	return settings[s.Name]
}

// SettingNamed returns the setting called name.
func (d Definition) SettingNamed(name string) (Setting, bool) {
	i := slices.IndexFunc(d.Settings, func(s Setting) bool { return s.Name == name })
	if i < 0 {
		return Setting{}, false
	}
	return d.Settings[i], true
}

// checkRoles refuses a definition that gives a unique role to two settings:
// a programming error, found at start-up.
func (d Definition) checkRoles() {
	for _, role := range unique {
		n := 0
		for _, s := range d.Settings {
			if s.Role == role {
				n++
			}
		}
		if n > 1 {
			panic(fmt.Sprintf("adapter kind %q gives role %s to %d settings; at most one may have it", d.Kind, role, n))
		}
	}
}

// Lacks is the refusal of what (an action, a step) that needs capability c
// on an account whose settings leave out a setting c needs (NeededBy):
// InvalidConfig naming that setting, with its description, which says what
// it holds. nil when every such setting has a value. One wording for
// the plan and the adapter, so the refusal reads the same at both.
func (d Definition) Lacks(c Capability, what string, settings map[string]string) error {
	for _, s := range d.Settings {
		if s.NeededBy.Has(c) && settings[s.Name] == "" {
			return Errorf(InvalidConfig, "%s needs the account's %s setting, which is not set (%s: %s)",
				what, s.Name, s.Name, s.Description).WithField(s.Name)
		}
	}
	return nil
}
