package conformance

import (
	"context"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// The claim rules (adapter.NewClaim): a create writes its claim with the
// machine; a create that finds the machine by key and adopts it writes its
// own claim over the old one and says what the old one was; updates keep the
// claim unless their mark brings another.

// get reads a machine, retrying what the Terraform layer retries.
func (s *suite) get(t *testing.T, id string) adapter.Machine {
	t.Helper()
	var m adapter.Machine
	if err := s.retry(t, "get "+id, func(ctx context.Context) (err error) { m, err = s.adapter.Get(ctx, id); return err }); err != nil {
		t.Fatalf("Get(%s): %v", id, err)
	}
	return m
}

// adoptionRewritesClaim: the rerun of an apply whose state was lost (same
// key, same request, a new claim) adopts the machine and holds it from then
// on; the first claim no longer does.
func adoptionRewritesClaim(t *testing.T, s *suite) {
	n := name(t, "claim")
	first, req := s.call(n), s.request(n)
	m := s.mustCreate(t, first, req)
	if m.Adopted {
		t.Errorf("a fresh create returned Adopted")
	}
	if got := s.get(t, m.ID); got.Claim != first.Claim {
		t.Fatalf("created machine %s has claim %q, want the create's %q", m.ID, got.Claim, first.Claim)
	}
	rerun := s.call(n)
	again := s.mustCreate(t, rerun, req)
	if again.ID != m.ID {
		t.Fatalf("the rerun made machine %s beside %s", again.ID, m.ID)
	}
	if !again.Adopted || again.Claim != rerun.Claim || again.PriorClaim != first.Claim {
		t.Errorf("the rerun returned adopted %t claim %q prior claim %q, want adopted with claim %q, prior %q",
			again.Adopted, again.Claim, again.PriorClaim, rerun.Claim, first.Claim)
	}
	got := s.get(t, m.ID)
	if got.Claim != rerun.Claim {
		t.Fatalf("after the rerun machine %s has claim %q, want the rerun's %q", m.ID, got.Claim, rerun.Claim)
	}
	if adapter.Held(got, first.Claim) {
		t.Errorf("the first claim still holds machine %s after another create adopted it", m.ID)
	}
	if !adapter.Held(got, rerun.Claim) {
		t.Errorf("the adopting claim does not hold machine %s", m.ID)
	}
}

// updatesKeepClaim: relabelling keeps the claim; a mark with a claim
// replaces it (the first apply after an import), a mark without one keeps
// it (a rename).
func updatesKeepClaim(t *testing.T, s *suite) {
	u, ok := s.adapter.(adapter.Updater)
	if !ok {
		t.Skip("the adapter cannot update machines")
	}
	n := name(t, "upd")
	call, req := s.call(n), s.request(n)
	m := s.mustCreate(t, call, req)
	update := func(what string, ureq adapter.UpdateRequest) adapter.Machine {
		t.Helper()
		var answered adapter.Machine
		if err := s.retry(t, what, func(ctx context.Context) (err error) { answered, err = u.Update(ctx, m.ID, ureq); return err }); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		got := s.get(t, m.ID)
		if answered.ID != m.ID || answered.Name != got.Name || answered.Claim != got.Claim || answered.Key != got.Key {
			t.Errorf("%s answered machine %+v, but a read shows %+v", what, answered, got)
		}
		return got
	}
	if got := update("relabel", adapter.UpdateRequest{Labels: map[string]string{"suite": "relabelled"}}); got.Claim != call.Claim {
		t.Errorf("relabelling changed the claim from %q to %q", call.Claim, got.Claim)
	}
	other := adapter.NewClaim()
	got := update("claim", adapter.UpdateRequest{Mark: &adapter.Mark{Key: call.IdempotencyKey, Fingerprint: m.Fingerprint, Claim: other}})
	if got.Claim != other {
		t.Errorf("a mark with claim %q left claim %q", other, got.Claim)
	}
	renamed := n + "-renamed"
	got = update("rename", adapter.UpdateRequest{Name: &renamed, Mark: &adapter.Mark{Key: adapter.IdempotencyKey(s.scope, renamed), Fingerprint: m.Fingerprint}})
	if got.Claim != other || got.Key != adapter.IdempotencyKey(s.scope, renamed) {
		t.Errorf("after a rename with a mark without claim: claim %q key %q; want claim %q and the new name's key", got.Claim, got.Key, other)
	}
}
