package adapter

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// An account change re-points the machines on it: an instance whose account
// becomes another (a new secret reference, another setting, the endpoint
// written another way) stays the same machine, once a read through the new
// account proves that it reaches it. The Terraform layer never replaces a
// machine for an account change; what it may compare and prove lives here,
// so it names no backend.

// RoleCancelsRental is a "true"/"false" setting that makes Delete end the
// machine's rental (it costs money to get it back, if it can be had at all)
// rather than only release the claim. The Terraform layer warns at plan
// about any replacement or destroy that would do it. At most one per
// adapter.
const RoleCancelsRental SettingRole = "cancels_rental"

// CancelsRental names the setting that makes Delete cancel a rental and
// reports whether settings turn it on; "" when the adapter has none.
func (d Definition) CancelsRental(settings map[string]string) (setting string, on bool) {
	s, ok := d.Setting(RoleCancelsRental)
	if !ok {
		return "", false
	}
	return s.Name, settings[s.Name] == "true"
}

// Canonical is settings as the contract compares them: the endpoint in
// canonical form (CanonicalEndpoint), each setting with a Canonical in its
// form, everything else as written.
func (d Definition) Canonical(settings map[string]string) map[string]string {
	out, cloned := settings, false
	for _, s := range d.Settings {
		v := settings[s.Name]
		if v == "" {
			continue
		}
		c := v
		switch {
		case s.Canonical != nil:
			c = s.Canonical(v)
		case s.Role == RoleEndpoint:
			c = CanonicalEndpoint(v)
		}
		if c == v {
			continue
		}
		if !cloned {
			out, cloned = maps.Clone(settings), true
		}
		out[s.Name] = c
	}
	return out
}

// Scope is the account's identity for idempotency keys (Locator.Scope over
// the Scope settings), with the endpoint in canonical form: a trailing slash
// or a default port does not change the keys a machine was created with.
func (d Definition) Scope(settings map[string]string) string {
	return Locator{Kind: d.Kind, Settings: d.Canonical(settings)}.Scope(d.ScopeKeys())
}

// Canonical is l with its endpoint in canonical form: the account id, so
// that an endpoint written with a trailing slash, or an import id that
// spells it so, names the same account as one without. A kind that is not
// known is returned as it is.
func (r *Registry) Canonical(l Locator) Locator {
	d, ok := r.defs[l.Kind]
	if !ok {
		return l
	}
	return Locator{Kind: l.Kind, Name: l.Name, Settings: d.Canonical(l.Settings)}
}

// ErrNotReached is what a NotReached error wraps, for errors.Is: the new
// account of a machine does not reach it.
var ErrNotReached = errors.New("the account does not reach the machine")

// NotReached reports whether err says that an account does not reach the
// machine (as opposed to not being able to tell now).
func NotReached(err error) bool { return errors.Is(err, ErrNotReached) }

// ReachedThrough decides whether an account an instance moves to reaches the
// machine the state holds, from one read of the machine's id through that
// account (get's answer m, err). It is proven when the machine is there,
// managed, and carries the state's claim; a state without a claim (a
// machine imported and not yet marked, or marked before claims) is proven by
// the machine's name instead, the one thing such a state knows of it.
//
// The error is NotReached (code Conflict) when the backend proved the
// machine is not there (NotFound) or that the machine under that id is
// another one (another project or cluster numbers its own machines alike);
// any other error is get's, unchanged: the account could not tell now
// (unreachable, a secret not resolvable here), and the caller proves it
// later or fails.
func ReachedThrough(m Machine, err error, id, claim, name string) error {
	switch {
	case IsNotFound(err):
		return &Error{Code: Conflict, Err: ErrNotReached, Message: fmt.Sprintf("the new account has no machine %s: %s", id, messageOf(err))}
	case err != nil:
		return err
	case claim != "" && (!m.Managed || m.Claim != claim):
		return &Error{Code: Conflict, Err: ErrNotReached, Message: fmt.Sprintf(
			"machine %s through the new account (%q) does not carry this state's claim, so it is another machine than the one this state holds", id, m.Name)}
	case claim == "" && m.Name != name:
		return &Error{Code: Conflict, Err: ErrNotReached, Message: fmt.Sprintf(
			"machine %s through the new account is named %q, not %q, so it is another machine than the one this state holds", id, m.Name, name)}
	}
	return nil
}

// Changes lists what differs between two accounts, for a message: each
// changed member (the name, a setting) with both values as messages show
// them (Redacted), the endpoint in canonical form; "" when only the
// spelling of the endpoint differs.
func (r *Registry) Changes(from, to Locator) string {
	a, b := r.Canonical(from), r.Canonical(to)
	var parts []string
	value := func(v string) string {
		if v == "" {
			return "(none)"
		}
		return Quoted(Redacted(v))
	}
	show := func(name, x, y string) {
		if x != y {
			parts = append(parts, fmt.Sprintf("%s %s → %s", name, value(x), value(y)))
		}
	}
	if a.Kind != b.Kind {
		show("kind", a.Kind, b.Kind)
	}
	show("name", a.Name, b.Name)
	keys := map[string]bool{}
	for k := range a.Settings {
		keys[k] = true
	}
	for k := range b.Settings {
		keys[k] = true
	}
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		show(k, a.Settings[k], b.Settings[k])
	}
	return strings.Join(parts, ", ")
}

// SameAccount reports whether two account ids name the same account once
// compared in canonical form (Canonical), whatever the account is called
// (Key): nothing to prove between them.
func (r *Registry) SameAccount(a, b string) bool {
	la, errA := ParseLocator(a)
	lb, errB := ParseLocator(b)
	return errA == nil && errB == nil && r.Canonical(la).Key() == r.Canonical(lb).Key()
}

// CancelSettings names, for the documentation, the settings that make a
// delete cancel a rental, as " (`BLOCK.SETTING`, …)"; "" when no adapter
// has one.
func CancelSettings(r *Registry) string {
	var names []string
	for _, d := range r.Definitions() {
		if s, ok := d.Setting(RoleCancelsRental); ok {
			names = append(names, "`"+d.BlockName()+"."+s.Name+"`")
		}
	}
	if len(names) == 0 {
		return ""
	}
	return " (" + strings.Join(names, ", ") + ")"
}
