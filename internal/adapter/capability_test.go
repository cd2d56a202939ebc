package adapter

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// poweredFake implements Powerer beside the fake's Lister, and no other
// optional interface.
type poweredFake struct{ fakeAdapter }

func (*poweredFake) Power(context.Context, string, PowerAction) error { return nil }

func declaring(caps ...Capability) Definition {
	d := testDefinition()
	d.Kind = "powered"
	d.Capabilities = caps
	d.New = func(map[string]string, Env) (Adapter, error) { return &poweredFake{}, nil }
	return d
}

// TestOpenRefusesWhatTheAdapterDoesNotImplement: capabilities are declared
// once, in the definition; an adapter that lacks the interface one of them
// needs is refused when its account is opened, with a message that names
// the kind, the capability and the missing method, before any call can
// trip over it.
func TestOpenRefusesWhatTheAdapterDoesNotImplement(t *testing.T) {
	for _, c := range []struct {
		name string
		caps Capabilities
		want []string
	}{
		{"rescue without Rescuer", Capabilities{CapPower, CapRescue}, []string{`"powered"`, `"rescue"`, "method Rescue", "adapter.Rescuer"}},
		{"inventory without Inventory", Capabilities{CapInventory}, []string{`"powered"`, `"inventory"`, "method Inventory"}},
		{"reboot without power", Capabilities{CapReboot}, []string{`"powered"`, `"reboot"`, `without "power"`}},
		{"unknown capability", Capabilities{"teleport"}, []string{`"powered"`, `"teleport"`, "does not know"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			accts := NewAccounts(NewRegistry(declaring(c.caps...)), Env{Secrets: SecretResolver{}})
			_, _, err := accts.Open(Locator{Kind: "powered", Settings: map[string]string{"token": "env://T"}}.String())
			if !Is(err, Unsupported) {
				t.Fatalf("open: %v, want Unsupported", err)
			}
			for _, w := range append(c.want, "fault of the provider's build: report it") {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("open: %q does not say %s", err, w)
				}
			}
		})
	}
}

// TestCachedOffersTheDefinitionsCapabilities: what an opened account offers
// is what its definition declares, the only place capabilities are written.
func TestCachedOffersTheDefinitionsCapabilities(t *testing.T) {
	caps := Capabilities{CapPower, CapReboot}
	accts := NewAccounts(NewRegistry(declaring(caps...)), Env{Secrets: SecretResolver{}})
	c, _, err := accts.Open(Locator{Kind: "powered", Settings: map[string]string{"token": "env://T"}}.String())
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.Capabilities(), caps) {
		t.Errorf("the account offers %v, its definition declares %v", c.Capabilities(), caps)
	}
	if err := c.Power(context.Background(), "1", PowerReset); !Is(err, Unsupported) {
		t.Errorf("a reset the definition does not declare: %v, want Unsupported", err)
	}
}

// TestImplementedByNamesEachInterfaceOnce: the capabilities an adapter value
// implements come from the table Implemented checks, one per interface, so
// Powerer is CapPower alone and not the graceful actions it also carries.
func TestImplementedByNamesEachInterfaceOnce(t *testing.T) {
	if got := ImplementedBy(&poweredFake{}); !slices.Equal(got, Capabilities{CapList, CapPower}) {
		t.Errorf("ImplementedBy(a Lister and Powerer) = %v, want list, power", got)
	}
	if got := ImplementedBy(&fakeAdapter{}); !slices.Equal(got, Capabilities{CapList}) {
		t.Errorf("ImplementedBy(a Lister) = %v, want list", got)
	}
}
