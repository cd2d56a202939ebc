package conformance

import (
	"context"
	"errors"
	"strings"
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
	checkMachine(t, "Get", m)
	return m
}

// adoptionRewritesClaim: the rerun of an apply whose state was lost (same
// key, same request, a new claim), within the recovery window and before
// any refresh confirmed the first claim, adopts the machine and holds it
// from then on, unconfirmed; the first claim no longer does.
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
	if got.Claim != rerun.Claim || !got.Unconfirmed {
		t.Fatalf("after the rerun machine %s has claim %q unconfirmed %t, want the rerun's %q, unconfirmed", m.ID, got.Claim, got.Unconfirmed, rerun.Claim)
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
	relabel := adapter.UpdateRequest{Labels: map[string]string{"suite": "relabelled"}}
	if s.NoLabels {
		// The only labels such a backend takes: none.
		relabel.Labels = map[string]string{}
	}
	if got := update("relabel", relabel); got.Claim != call.Claim {
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

// fingerprintConflict: a machine found by key is not adopted when the
// request differs; the Conflict names both fingerprints.
func fingerprintConflict(t *testing.T, s *suite) {
	n := name(t, "fp")
	call, req := s.call(n), s.request(n)
	first := s.mustCreate(t, call, req)
	other := req
	if s.NoUserData {
		if s.OtherImage == "" {
			t.Fatal("Target.NoUserData needs Target.OtherImage, a second image, to make a request with another fingerprint")
		}
		other.Image = s.OtherImage
	} else {
		other.UserData = userData + "# changed\n"
	}
	m, err := s.create(t, call, other)
	if err == nil {
		t.Fatalf("a create with the same key and another fingerprint returned machine %s, want Conflict", m.ID)
	}
	wantCode(t, "Create with another fingerprint", err, adapter.Conflict)
	// A backend with little room keeps a prefix of the fingerprint, as
	// Machine.Fingerprint shows: the Conflict names both in that form.
	kept := s.get(t, first.ID).Fingerprint
	if kept == "" || !strings.HasPrefix(adapter.Fingerprint(req), kept) {
		t.Fatalf("machine %s keeps fingerprint %q, which is not (a prefix of) its request's %s", first.ID, kept, adapter.Fingerprint(req))
	}
	for _, fp := range []string{adapter.Fingerprint(req), adapter.Fingerprint(other)} {
		fp = fp[:len(kept)]
		if !strings.Contains(err.Error(), fp) {
			t.Errorf("the Conflict must name both fingerprints; %q lacks %s", err, fp)
		}
	}
	if strings.Contains(err.Error(), userDataSentinel) {
		t.Errorf("the Conflict repeats user data: %q", err)
	}
}

// unmarkedLeftAlone: a machine without the marks is never listed, powered,
// deleted or adopted, each refusal naming it, and is still there afterwards.
func unmarkedLeftAlone(t *testing.T, s *suite) {
	if s.SeedUnmarked == nil {
		t.Skip("the target cannot seed unmarked machines")
	}
	n := name(t, "unmarked")
	id := s.SeedUnmarked(t, n)
	var before adapter.Machine
	if err := s.retry(t, "get", func(ctx context.Context) (err error) { before, err = s.adapter.Get(ctx, id); return err }); err != nil {
		t.Fatalf("Get of the unmarked machine %s: %v", id, err)
	}
	if l, ok := s.adapter.(adapter.Lister); ok {
		var ms []adapter.Machine
		if err := s.retry(t, "list", func(ctx context.Context) (err error) { ms, err = l.List(ctx); return err }); err != nil {
			t.Fatalf("List: %v", err)
		}
		for _, m := range ms {
			if m.ID == id {
				t.Errorf("List shows unmarked machine %s", id)
			}
		}
	}
	// Each refusal names the machine, so a user can tell which one, and is
	// the one refusal every backend gives (adapter.Unmarked).
	refused := func(what string, err error) {
		t.Helper()
		wantCode(t, what+" of an unmarked machine", err, adapter.AccessDenied)
		if !strings.Contains(err.Error(), id) {
			t.Errorf("the refusal of %s must name the machine %s: %q", what, id, err)
		}
		if !errors.Is(err, adapter.ErrUnmarked) {
			t.Errorf("the refusal of %s is not adapter.Unmarked's (it does not wrap ErrUnmarked): %q", what, err)
		}
	}
	if p, ok := s.adapter.(adapter.Powerer); ok {
		refused("Power", s.retry(t, "power", func(ctx context.Context) error { return p.Power(ctx, id, adapter.PowerOff) }))
	}
	if u, ok := s.adapter.(adapter.Updater); ok {
		refused("Update", s.retry(t, "update", func(ctx context.Context) error {
			_, err := u.Update(ctx, id, s.change(t, "taken"))
			return err
		}))
	}
	refused("Delete", s.retry(t, "delete", func(ctx context.Context) error { return s.adapter.Delete(ctx, id) }))

	m, err := s.create(t, s.call(n), s.request(n))
	switch {
	case err == nil && m.ID == id:
		t.Errorf("Create adopted unmarked machine %s", id)
	case err != nil:
		wantCode(t, "Create with an unmarked machine's name", err, adapter.Conflict)
	}

	var got adapter.Machine
	if err := s.retry(t, "get", func(ctx context.Context) (err error) { got, err = s.adapter.Get(ctx, id); return err }); err != nil {
		t.Fatalf("the unmarked machine %s must still be there: %v", id, err)
	}
	if got.Managed {
		t.Errorf("unmarked machine %s reads as managed", id)
	}
	if s.PowerObservable && before.State != adapter.StateStopped && got.State == adapter.StateStopped {
		t.Errorf("unmarked machine %s was stopped", id)
	}
	if s.changed(got, "taken") {
		t.Errorf("unmarked machine %s was changed by an update: %+v", id, got)
	}
}

// deletingIsNotAdopted: a create whose key finds a machine being deleted
// does not take it over (it will be gone in a moment); it fails for a retry,
// or, once the machine is gone, makes a new one.
func deletingIsNotAdopted(t *testing.T, s *suite) {
	n := name(t, "deleting")
	call, req := s.call(n), s.request(n)
	m := s.mustCreate(t, call, req)
	if err := s.retry(t, "delete", func(ctx context.Context) error { return s.adapter.Delete(ctx, m.ID) }); err != nil {
		t.Fatalf("Delete(%s): %v", m.ID, err)
	}
	again, err := s.adapter.Create(s.ctx(t), s.call(n), req)
	switch {
	case err == nil && again.ID == m.ID:
		t.Errorf("a create adopted machine %s while it was being deleted", m.ID)
	case err == nil:
		s.cleanup(t, again.ID)
	default:
		wantCode(t, "Create beside a machine being deleted", err, adapter.Transient)
	}
}
