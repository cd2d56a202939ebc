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

// TestCancelWarning names the object, its machine, the account and the way
// to keep the rental, and says nothing for an account that cancels nothing.
func TestCancelWarning(t *testing.T) {
	reg := rentalRegistry()
	m := Machine{Kind: "bootstrap host", ID: "7", Shown: `(host "db")`, Deleted: "released"}
	on := adapter.Locator{Kind: "rent", Name: "metal", Settings: map[string]string{"cancel": "true", "endpoint": "https://r.example"}}
	got := CancelWarning(reg, on, m, "db", true)
	for _, want := range []string{`This plan replaces bootstrap host "db": machine 7 is released through account "metal" (rented at https://r.example)`,
		`rented.cancel is "true"`, `set cancel = "false" on the account and apply that first`, "forces the replacement"} {
		if !strings.Contains(got, want) {
			t.Errorf("CancelWarning lacks %q:\n%s", want, got)
		}
	}
	if got := CancelWarning(reg, on, m, "db", false); !strings.Contains(got, "This plan destroys") || !strings.Contains(got, "forces the destroy") {
		t.Errorf("a destroy: %s", got)
	}
	on.Settings["cancel"] = "false"
	if got := CancelWarning(reg, on, m, "db", true); got != "" {
		t.Errorf("an account that keeps rentals: %q", got)
	}
}

// TestNotReached: the refusal names both accounts, what changed, the
// machine and every way out, and the rental note where it applies.
func TestNotReached(t *testing.T) {
	reg := rentalRegistry()
	from := adapter.Locator{Kind: "rent", Name: "metal", Settings: map[string]string{"cancel": "true", "endpoint": "https://a.example"}}
	to := adapter.Locator{Kind: "rent", Name: "metal", Settings: map[string]string{"cancel": "true", "endpoint": "https://b.example"}}
	m := Machine{Kind: "instance", ID: "7", Shown: `("web")`, Deleted: "deleted", Deleting: "deleting", Next: "creates a new machine"}
	got := NotReached(reg, from, to, m, adapter.Errorf(adapter.Conflict, "the new account has no machine 7"))
	for _, want := range []string{`account "metal" (rented at https://a.example) to account "metal" (rented at https://b.example)`,
		`what changed: endpoint "https://a.example" → "https://b.example"`, `machine 7 ("web") is not reached`, "the new account has no machine 7",
		"re-points this instance in place", "terraform taint ADDRESS", "terraform state rm ADDRESS", "removed {}", "creates a new machine on the new account",
		`rented.cancel = "true"`} {
		if !strings.Contains(got, want) {
			t.Errorf("NotReached lacks %q:\n%s", want, got)
		}
	}
}
