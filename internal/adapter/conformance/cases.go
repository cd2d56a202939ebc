package conformance

import (
	"context"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

var cases = []testCase{
	{"definition builds", definitionBuilds},
	{"offers are well formed", offersWellFormed},
	{"retried create returns the same machine", createIsIdempotent},
	{"get follows and delete removes", getAndDelete},
	{"power stops and starts", power},
	{"same key with another fingerprint is a conflict", fingerprintConflict},
	{"unmarked machines are left alone", unmarkedLeftAlone},
	{"an unconfirmed claim within the window is adopted", adoptionRewritesClaim},
	{"updates keep the claim", updatesKeepClaim},
	{"a confirmed machine is refused, nothing written", confirmedIsRefused},
	{"an unconfirmed claim past the window is refused", pastWindowIsRefused},
	{"confirming is idempotent", confirmIsIdempotent},
	{"a machine being deleted is not adopted", deletingIsNotAdopted},
	{"faults are errors, never absence", faultsAreNeverAbsence},
	{"an endpoint that is not the API is never absence", endpointNotTheAPI},
	{"states are conservative and keep the raw status", statesAreConservative},
	{"a created machine is never stopped before it runs", createdIsNeverStopped},
	{"a gone machine is NotFound to every call", goneIsNotFound},
	{"a malformed id is InvalidInput", malformedIDsAreInvalidInput},
	{"a pasted secret as an id is refused redacted", pastedIDsAreRedacted},
	{"a create call without a key or a claim is InvalidInput", malformedCallsAreInvalidInput},
	{"no secret or user data leaves", secretsNeverLeak},
	{"every call returns promptly on cancel", callsReturnOnCancel},
	{"available actions are offered and match the state", actionsMatchTheState},
	{"an unmarked machine offers no action", unmarkedOffersNothing},
	{"graceful power actions never start a stopped machine", gracefulPowerActions},
	{"a boot into rescue acts only on a held machine", rescueBoots},
	{"a label reserved for the mark is refused", reservedLabelsRefused},
}

// definitionBuilds: the manifest normalizes, the adapter builds, and the
// capabilities its definition declares are exactly the interfaces it
// implements (Registry.Open checks one half of that at every open).
func definitionBuilds(t *testing.T, s *suite) {
	d := s.Definition
	if d.Kind == "" || s.adapter.Kind() != d.Kind {
		t.Errorf("Kind: definition %q, adapter %q", d.Kind, s.adapter.Kind())
	}
	if err := d.Capabilities.Implemented(d.Kind, s.adapter); err != nil {
		t.Error(err)
	}
	// Implemented above refuses what is declared and not implemented; the
	// converse, from the contract's same table: what is implemented and not
	// declared is an ability the Terraform layer never offers.
	for _, c := range adapter.ImplementedBy(s.adapter) {
		if !d.Capabilities.Has(c) {
			t.Errorf("capability %s: the adapter (%T) implements adapter.%s, but the definition does not declare it", c, s.adapter, c.Needs())
		}
	}
	for _, set := range d.Settings {
		if set.Name == "" || set.Description == "" {
			t.Errorf("setting %q needs a name and a description", set.Name)
		}
	}
	if _, err := d.Normalize(map[string]string{"no_such_setting": "x"}, nil); !adapter.Is(err, adapter.InvalidConfig) || adapter.FieldOf(err) != "no_such_setting" {
		t.Errorf("Normalize of an unknown setting: got %v, want InvalidConfig on no_such_setting", err)
	}
	if c, ok := s.adapter.(adapter.Checker); ok {
		if err := s.retry(t, "check", c.Check); err != nil {
			t.Errorf("Check: %v", err)
		}
	}
}

// offersWellFormed: offers have ids and sizes, include the target's offer,
// come sorted by price, and an impossible query is [] without an error.
func offersWellFormed(t *testing.T, s *suite) {
	var offers []adapter.Offer
	err := s.retry(t, "list offers", func(ctx context.Context) error {
		var err error
		offers, err = s.adapter.ListOffers(ctx, adapter.Query{Location: s.Location})
		return err
	})
	if err != nil {
		t.Fatalf("ListOffers: %v", err)
	}
	seen := map[string]bool{}
	for i, o := range offers {
		switch {
		case o.ID == "":
			t.Errorf("offer %d has no id: %+v", i, o)
		case seen[o.ID]:
			t.Errorf("offer id %q appears twice", o.ID)
		case o.VCPU <= 0 || o.MemoryGiB <= 0:
			t.Errorf("offer %q has vcpu %d, memory %g", o.ID, o.VCPU, o.MemoryGiB)
		case o.Kind != adapter.KindVPS && o.Kind != adapter.KindMetal:
			t.Errorf("offer %q has kind %q", o.ID, o.Kind)
		case o.PricePerHour > 0 && o.Currency == "":
			t.Errorf("offer %q has a price without a currency", o.ID)
		case i > 0 && o.PricePerHour < offers[i-1].PricePerHour:
			t.Errorf("offers are not sorted by price: %q (%g) after %q (%g)", o.ID, o.PricePerHour, offers[i-1].ID, offers[i-1].PricePerHour)
		}
		seen[o.ID] = true
	}
	if !seen[s.OfferID] {
		t.Errorf("offers in %q do not include %q", s.Location, s.OfferID)
	}
	var none []adapter.Offer
	err = s.retry(t, "list offers", func(ctx context.Context) error {
		var err error
		none, err = s.adapter.ListOffers(ctx, adapter.Query{MinVCPU: 1_000_000})
		return err
	})
	if err != nil || none == nil || len(none) != 0 {
		t.Errorf("an impossible query must give [] and no error; got %v, %v", none, err)
	}
}

// createIsIdempotent: a create retried with the same key returns the
// machine the first one made, and the machine carries the key.
func createIsIdempotent(t *testing.T, s *suite) {
	n := name(t, "idem")
	call, req := s.call(n), s.request(n)
	first := s.mustCreate(t, call, req)
	again := s.mustCreate(t, call, req)
	if again.ID != first.ID {
		t.Fatalf("a retried create made a second machine: %s, then %s", first.ID, again.ID)
	}
	if !first.Managed || first.Key != call.IdempotencyKey {
		t.Errorf("created machine: managed %t key %q, want managed with key %q", first.Managed, first.Key, call.IdempotencyKey)
	}
	if l, ok := s.adapter.(adapter.Lister); ok {
		var ms []adapter.Machine
		if err := s.retry(t, "list", func(ctx context.Context) (err error) { ms, err = l.List(ctx); return err }); err != nil {
			t.Fatalf("List: %v", err)
		}
		count := 0
		for _, m := range ms {
			if m.ID == first.ID {
				count++
			}
		}
		if count != 1 {
			t.Errorf("List shows the created machine %d times, want once", count)
		}
	}
}

// getAndDelete: Get reads what Create made; Delete removes it, and the
// machine stays present until it is gone (goneIsNotFound takes it from
// there).
func getAndDelete(t *testing.T, s *suite) {
	n := name(t, "get")
	created := s.mustCreate(t, s.call(n), s.request(n))
	var got adapter.Machine
	if err := s.retry(t, "get", func(ctx context.Context) (err error) { got, err = s.adapter.Get(ctx, created.ID); return err }); err != nil {
		t.Fatalf("Get(%s): %v", created.ID, err)
	}
	if got.ID != created.ID || got.Name != n || !got.Managed {
		t.Errorf("Get(%s) = id %q name %q managed %t, want id %q name %q managed", created.ID, got.ID, got.Name, got.Managed, created.ID, n)
	}
	// Backends without labels report none; those with labels must not
	// show the adapter's own marks among the user's.
	for k := range got.Labels {
		if _, asked := s.request(n).Labels[k]; !asked {
			t.Errorf("Machine.Labels must hold the user's labels only, found %q", k)
		}
	}
	if err := s.retry(t, "delete", func(ctx context.Context) error { return s.adapter.Delete(ctx, created.ID) }); err != nil {
		t.Fatalf("Delete(%s): %v", created.ID, err)
	}
	s.waitFor(t, created.ID, "absence", func(m adapter.Machine, err error) bool {
		if err == nil && m.State != adapter.StateDeleting && m.State != adapter.StateDeleted {
			t.Errorf("after Delete was accepted, machine %s reads as %s (raw %q), want deleting until it is gone", created.ID, m.State, m.RawState)
		}
		return adapter.IsNotFound(err)
	})
}

// power: a managed machine stops and starts. Where Get cannot see power
// (Target.PowerObservable false), each switch must succeed and, with
// Target.PowerReceived, reach the machine as the action it was.
func power(t *testing.T, s *suite) {
	p, ok := s.adapter.(adapter.Powerer)
	if !ok {
		t.Skip("the adapter does not offer power")
	}
	n := name(t, "power")
	m := s.mustCreate(t, s.call(n), s.request(n))
	if s.PowerObservable {
		s.waitFor(t, m.ID, "running", func(m adapter.Machine, err error) bool { return err == nil && m.State == adapter.StateRunning })
	}
	for _, step := range []struct {
		action adapter.PowerAction
		state  adapter.State
	}{{adapter.PowerOff, adapter.StateStopped}, {adapter.PowerOn, adapter.StateRunning}} {
		// Without observable power, what is left to check is that each
		// switch succeeds and reaches the machine as itself.
		s.powerReaches(t, p, m.ID, step.action)
		if s.PowerObservable {
			s.waitFor(t, m.ID, string(step.state), func(m adapter.Machine, err error) bool { return err == nil && m.State == step.state })
		}
	}
}
