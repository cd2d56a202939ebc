package adapter

import (
	"slices"
	"strings"
)

// Capability names an optional ability of an adapter.
type Capability string

// The optional abilities. Each matches an interface in this package (see
// Needs).
const (
	CapPower     Capability = "power"
	CapUpdate    Capability = "update"
	CapList      Capability = "list"
	CapInventory Capability = "inventory"
	CapCheck     Capability = "check"
	CapValidate  Capability = "validate"
	CapIdentify  Capability = "identify"
	CapBootstrap Capability = "bootstrap"
)

// Capabilities is the set an adapter declares, once: in its Definition,
// which the Terraform layer reads at plan time before any account is
// opened, and which Cached offers (Cached.Capabilities). The adapter value
// has no say of its own; Registry.Open checks that it implements what the
// definition declares (Implemented).
type Capabilities []Capability

// Has reports whether c is declared.
func (cs Capabilities) Has(c Capability) bool { return slices.Contains(cs, c) }

func (cs Capabilities) String() string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = string(c)
	}
	return strings.Join(parts, ", ")
}

// need is the interface one capability needs: its name and method as a
// message shows them, and whether an adapter value implements it.
type need struct {
	iface, method string
	has           func(Adapter) bool
}

func implements[I any](a Adapter) bool { _, ok := a.(I); return ok }

// needs maps each capability to the interface the adapter value must
// implement to offer it. The graceful power actions are values of Power,
// so they need Powerer as CapPower does (and CapPower declared beside them).
var needs = map[Capability]need{
	CapPower:     {"Powerer", "Power", implements[Powerer]},
	CapShutdown:  {"Powerer", "Power", implements[Powerer]},
	CapReboot:    {"Powerer", "Power", implements[Powerer]},
	CapReset:     {"Powerer", "Power", implements[Powerer]},
	CapUpdate:    {"Updater", "Update", implements[Updater]},
	CapList:      {"Lister", "List", implements[Lister]},
	CapInventory: {"Inventory", "Inventory", implements[Inventory]},
	CapCheck:     {"Checker", "Check", implements[Checker]},
	CapValidate:  {"Validator", "Validate", implements[Validator]},
	CapIdentify:  {"Identifier", "Identify", implements[Identifier]},
	CapBootstrap: {"Bootstrapper", "Bootstrap", implements[Bootstrapper]},
	CapRescue:    {"Rescuer", "Rescue", implements[Rescuer]},
}

// Needs names the interface of this package that c needs ("Powerer"); ""
// for a capability the contract does not know.
func (c Capability) Needs() string { return needs[c].iface }

// ImplementedBy lists, sorted, the capabilities whose interface a
// implements: one per interface, CapPower for Powerer, since the graceful
// actions are values of Power that an adapter offers only by declaring
// them. It is the converse of Implemented, from the same table: the
// conformance case "definition builds" checks with it that a definition
// declares everything its adapter can do, so no ability is left unoffered.
func ImplementedBy(a Adapter) Capabilities {
	var out Capabilities
	for c, n := range needs {
		if n.has(a) && (n.iface != "Powerer" || c == CapPower) {
			out = append(out, c)
		}
	}
	slices.Sort(out)
	return out
}

// buildFault ends a refusal that no setting of the user's mends: the
// adapter and its definition disagree, which only a new build fixes.
const buildFault = "; this is a fault of the provider's build: report it"

// Implemented checks that a, built by New of the definition of kind,
// implements the interface each capability in cs needs, and that each
// graceful power action comes with CapPower. The first failure names the
// kind, the capability and the missing method. A definition that declares
// more than its adapter does is a programming error, found the first time
// an account of the kind is opened rather than half-way through an apply;
// it is Unsupported, since no setting of the user's can mend it.
func (cs Capabilities) Implemented(kind string, a Adapter) error {
	for _, c := range cs {
		n, known := needs[c]
		switch {
		case !known:
			return Errorf(Unsupported, "adapter kind %q declares capability %q, which the contract does not know"+buildFault, kind, c)
		case !n.has(a):
			return Errorf(Unsupported, "adapter kind %q declares capability %q, but its adapter (%T) has no method %s (adapter.%s)"+buildFault, kind, c, a, n.method, n.iface)
		case c != CapPower && n.iface == "Powerer" && !cs.Has(CapPower):
			return Errorf(Unsupported, "adapter kind %q declares capability %q without %q, which it is one more action of"+buildFault, kind, c, CapPower)
		}
	}
	return nil
}
