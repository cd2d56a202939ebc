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
	def, err := reg.Definition(inState.Kind)
	if err != nil {
		return ""
	}
	setting, on := def.CancelsRental(inState.Settings)
	if !on {
		return ""
	}
	return fmt.Sprintf(" Mind that the account in state has %s.%s = \"true\": the delete after a taint (or -replace) also cancels "+
		"the machine's rental, which cannot be undone, and no plan warns of it, since Terraform plans a tainted object as a new "+
		"one. To keep the rental, set %s = \"false\" on the account and apply that first.", def.BlockName(), setting, setting)
}
