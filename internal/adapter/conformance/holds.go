package conformance

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// The hold rules (adapter.Adoptable): a create writes its claim
// unconfirmed; the holder's first refresh confirms it (Cached.Confirm, one
// write through Update, idempotent); from then on, and past the recovery
// window, a create with the same key and another claim is refused with a
// Conflict before anything is written.

// confirm confirms claim on machine id through the contract's Confirm, as a
// refresh does, and reports whether it wrote.
func (s *suite) confirm(t *testing.T, id, claim string) bool {
	t.Helper()
	c := adapter.NewCached(s.adapter, s.Env.Clock, 0).Declare(s.Definition.Capabilities)
	var wrote bool
	if err := s.retry(t, "confirm "+id, func(ctx context.Context) (err error) { wrote, err = c.Confirm(ctx, id, claim); return err }); err != nil {
		t.Fatalf("Confirm(%s): %v", id, err)
	}
	return wrote
}

// refusedUntouched asserts that a create with call was refused as a
// machine another state holds, naming it, and that m is as it was.
func (s *suite) refusedUntouched(t *testing.T, what string, call adapter.Call, req adapter.CreateRequest, before adapter.Machine) {
	t.Helper()
	m, err := s.create(t, call, req)
	if err == nil {
		t.Fatalf("%s: the create returned machine %s (adopted %t), want a Conflict", what, m.ID, m.Adopted)
	}
	wantCode(t, what, err, adapter.Conflict)
	if !errors.Is(err, adapter.ErrHeldElsewhere) {
		t.Errorf("%s: the Conflict does not wrap ErrHeldElsewhere: %v", what, err)
	}
	for _, want := range []string{before.ID, before.Name, "terraform state rm", "terraform.workspace"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%s: the refusal must name %q: %v", what, want, err)
		}
	}
	after := s.get(t, before.ID)
	if after.Claim != before.Claim || after.Unconfirmed != before.Unconfirmed || after.Name != before.Name || after.Key != before.Key ||
		after.Fingerprint != before.Fingerprint || !s.NoLabels && after.Labels["suite"] != before.Labels["suite"] {
		t.Errorf("%s: the refused create changed machine %s from %+v to %+v", what, before.ID, before, after)
	}
}

// confirmedIsRefused: a machine whose holder confirmed its claim is not
// adopted by a create with the same key and another claim (a second state),
// and nothing is written onto it; its holder still holds it.
func confirmedIsRefused(t *testing.T, s *suite) {
	n := name(t, "held")
	first, req := s.call(n), s.request(n)
	m := s.mustCreate(t, first, req)
	if got := s.get(t, m.ID); !got.Unconfirmed || got.Claim != first.Claim {
		t.Fatalf("a created machine reads claim %q unconfirmed %t, want the create's claim %q, unconfirmed", got.Claim, got.Unconfirmed, first.Claim)
	}
	if !s.confirm(t, m.ID, first.Claim) {
		t.Fatalf("confirming the unconfirmed claim on machine %s wrote nothing", m.ID)
	}
	before := s.get(t, m.ID)
	if before.Unconfirmed || before.Claim != first.Claim {
		t.Fatalf("after Confirm machine %s reads claim %q unconfirmed %t, want %q confirmed", m.ID, before.Claim, before.Unconfirmed, first.Claim)
	}
	s.refusedUntouched(t, "a second state's create of a confirmed machine", s.call(n), req, before)
	if !adapter.Held(s.get(t, m.ID), first.Claim) {
		t.Errorf("the holder lost machine %s to a refused create", m.ID)
	}
}

// pastWindowIsRefused: an unconfirmed claim older than the recovery window
// is not adopted either.
func pastWindowIsRefused(t *testing.T, s *suite) {
	n := name(t, "stale")
	first, req := s.call(n), s.request(n)
	first.Claim = adapter.NewClaimAt(time.Now().Add(-adapter.RecoveryWindow - time.Minute))
	m := s.mustCreate(t, first, req)
	before := s.get(t, m.ID)
	if !before.Unconfirmed {
		t.Fatalf("a created machine reads confirmed: %+v", before)
	}
	s.refusedUntouched(t, "a create after the recovery window", s.call(n), req, before)
}

// confirmIsIdempotent: confirming twice writes once; confirming another
// state's claim, or a machine an adoption took over, writes nothing and
// leaves the claim as it is.
func confirmIsIdempotent(t *testing.T, s *suite) {
	n := name(t, "confirm")
	call, req := s.call(n), s.request(n)
	m := s.mustCreate(t, call, req)
	if s.confirm(t, m.ID, adapter.NewClaim()) {
		t.Errorf("confirming a claim machine %s does not carry wrote", m.ID)
	}
	if got := s.get(t, m.ID); !got.Unconfirmed || got.Claim != call.Claim {
		t.Fatalf("confirming another claim changed machine %s: claim %q unconfirmed %t", m.ID, got.Claim, got.Unconfirmed)
	}
	if !s.confirm(t, m.ID, call.Claim) {
		t.Fatalf("the first Confirm of machine %s wrote nothing", m.ID)
	}
	if s.confirm(t, m.ID, call.Claim) {
		t.Errorf("the second Confirm of machine %s wrote again", m.ID)
	}
	got := s.get(t, m.ID)
	if got.Unconfirmed || got.Claim != call.Claim || got.Key != call.IdempotencyKey || got.Name != n || !got.Managed {
		t.Errorf("after two Confirms machine %s reads %+v, want it managed, confirmed, with its claim, key and name", m.ID, got)
	}
	// The holder still does what a holder does: a rerun of its own create
	// (same claim) returns the machine.
	again, err := s.create(t, call, req)
	if err != nil || again.ID != m.ID || again.Adopted {
		t.Errorf("the holder's own create again: machine %s adopted %t, %v; want machine %s, not adopted", again.ID, again.Adopted, err, m.ID)
	}
}
