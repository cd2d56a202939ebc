package tfdiag

import (
	"fmt"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// An account change that does not reach the machine is refused on account,
// by compute_instance and compute_bootstrap_host alike; what their messages
// share is written here once.

// AccountChanges says what differs between the account in state and the
// planned one, for the refusal: the changed members by name, values
// redacted as any message shows them, e.g.
// `endpoint "http://127.0.0.1:8080/v1" → "http://localhost:8080/v1"`.
func AccountChanges(reg *adapter.Registry, from, to adapter.Locator) string {
	changes := reg.Changes(from, to)
	if changes == "" {
		return ""
	}
	return fmt.Sprintf(" (what changed: %s)", changes)
}

// RentalNote warns, in the way out of a refused account change, that the
// taint it suggests also cancels the machine's rental when the account in
// state says so: Terraform plans a tainted object as a new one, so no plan
// can warn of that replacement. "" when the account cancels nothing.
func RentalNote(reg *adapter.Registry, inState adapter.Locator) string {
	def, setting, on := cancels(reg, inState)
	if !on {
		return ""
	}
	return fmt.Sprintf(" Mind that the account in state has %s.%s = \"true\": the delete after a taint (or -replace) also cancels "+
		"the machine's rental, which cannot be undone, and no plan warns of it, since Terraform plans a tainted object as a new "+
		"one. To keep the rental, set %s = \"false\" on the account and apply that first.", def.BlockName(), setting, setting)
}

// Machine is how the messages about an account change name the resource and
// what its destroy does to its machine: compute_instance deletes it,
// compute_bootstrap_host releases it.
type Machine struct {
	// Kind is the resource's noun: "instance", "bootstrap host".
	Kind string
	// ID is the machine's own id; Shown its name as the message gives it,
	// `("web-1")` or `(host "db-1")`.
	ID, Shown string
	// Deleted and Deleting say what the destroy does: "deleted" and
	// "deleting", or "released" and "releasing".
	Deleted, Deleting string
	// Next is what the resource does on a new account: "creates a new
	// machine", "claims a machine".
	Next string
}

// NotReached is the refusal of an account change whose new account does not
// reach the machine (adapter.NotReached err), with the ways out.
func NotReached(reg *adapter.Registry, from, to adapter.Locator, m Machine, err error) string {
	return fmt.Sprintf("account changes from %s to %s%s, and machine %s %s is not reached through the new account: %s. An account "+
		"change re-points this %s in place only when the new account reaches the same machine, so nothing was changed. To keep the "+
		"machine, set account back. To get a new one on the new account, run `terraform taint ADDRESS` with this resource's address "+
		"and apply: the old machine is %s through the account recorded in state (`terraform apply -replace` is refused by this same "+
		"check, which runs in the plan it would replace). To let the old machine go without %s it, forget it: `terraform state rm "+
		"ADDRESS`, or apply once with the resource replaced by a `removed {}` block with `lifecycle { destroy = false }`; the next "+
		"apply with the resource %s on the new account.%s",
		reg.Describe(from), reg.Describe(to), AccountChanges(reg, from, to), m.ID, m.Shown, Message(err), m.Kind, m.Deleted, m.Deleting,
		m.Next, RentalNote(reg, from))
}

// NotProvenAtPlan is the warning of a plan that could not read the machine
// through the new account now (err says why); the apply reads it first.
func NotProvenAtPlan(reg *adapter.Registry, to adapter.Locator, m Machine) string {
	return fmt.Sprintf("account changes to %s, and whether it reaches machine %s %s could not be read now. The apply reads it "+
		"through the new account before anything is written, and fails there if the new account does not reach it.",
		reg.Describe(to), m.ID, m.Shown)
}

// NotReadAtApply is the error of an apply that could not read the machine
// through the new account (err says why), before it wrote anything.
func NotReadAtApply(reg *adapter.Registry, to adapter.Locator, m Machine, err error) string {
	return fmt.Sprintf("account changes to %s, and machine %s %s could not be read through it, so the change is not applied and "+
		"nothing was written. %s", reg.Describe(to), m.ID, m.Shown, WayOut(err))
}

// CancelWarning is the warning of a plan that replaces (or, replacing
// false, destroys) a machine whose account in state cancels rentals on
// destroy, naming it; "" when that account cancels nothing.
func CancelWarning(reg *adapter.Registry, inState adapter.Locator, m Machine, name string, replacing bool) string {
	def, setting, on := cancels(reg, inState)
	if !on {
		return ""
	}
	what, cause := "destroys", "destroy"
	if replacing {
		what, cause = "replaces", "replacement"
	}
	return fmt.Sprintf("This plan %s %s %q: machine %s is %s through %s, whose %s.%s is \"true\", so its rental is cancelled, "+
		"which cannot be undone. To keep the machine, set %s = \"false\" on the account and apply that first, or change what "+
		"forces the %s.", what, m.Kind, name, m.ID, m.Deleted, reg.Describe(inState), def.BlockName(), setting, setting, cause)
}

// CancelSummary is the summary of CancelWarning.
const CancelSummary = "Machine's rental will be cancelled"

// cancels is the setting of the account l (with its adapter's definition)
// that makes a delete cancel the machine's rental, and whether it is on.
func cancels(reg *adapter.Registry, l adapter.Locator) (def adapter.Definition, setting string, on bool) {
	def, err := reg.Definition(l.Kind)
	if err != nil {
		return def, "", false
	}
	setting, on = def.CancelsRental(l.Settings)
	return def, setting, on
}
