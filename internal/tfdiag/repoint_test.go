package tfdiag

import (
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

func rentalRegistry() *adapter.Registry {
	return adapter.NewRegistry(adapter.Definition{Kind: "rent", Block: "rented", Settings: []adapter.Setting{
		{Name: "endpoint", Role: adapter.RoleEndpoint},
		{Name: "cancel", Role: adapter.RoleCancelsRental},
	}, New: func(map[string]string, adapter.Env) (adapter.Adapter, error) { return nil, nil }})
}

// TestRentalNote: the way out of a refused account change says that the
// taint it suggests cancels the rental, when the account in state says so,
// and how to keep it; nothing otherwise.
func TestRentalNote(t *testing.T) {
	reg := rentalRegistry()
	on := adapter.Locator{Kind: "rent", Settings: map[string]string{"cancel": "true"}}
	got := RentalNote(reg, on)
	if !strings.Contains(got, `rented.cancel = "true"`) || !strings.Contains(got, `set cancel = "false" on the account and apply that first`) {
		t.Errorf("RentalNote = %q", got)
	}
	for _, l := range []adapter.Locator{{Kind: "rent", Settings: map[string]string{"cancel": "false"}}, {Kind: "rent"}, {Kind: "unknown"}} {
		if got := RentalNote(reg, l); got != "" {
			t.Errorf("RentalNote(%+v) = %q, want nothing", l, got)
		}
	}
}

// TestAccountChanges: the changed setting is named, with its values.
func TestAccountChanges(t *testing.T) {
	reg := rentalRegistry()
	from := adapter.Locator{Kind: "rent", Name: "a", Settings: map[string]string{"endpoint": "https://x.example/api"}}
	to := adapter.Locator{Kind: "rent", Name: "a", Settings: map[string]string{"endpoint": "https://y.example/api"}}
	if got := AccountChanges(reg, from, to); got != ` (what changed: endpoint "https://x.example/api" → "https://y.example/api")` {
		t.Errorf("AccountChanges = %q", got)
	}
	if got := AccountChanges(reg, from, from); got != "" {
		t.Errorf("no change: %q", got)
	}
}
