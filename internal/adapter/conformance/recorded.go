package conformance

import (
	"context"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// recordedNotAdopted: once a machine is recorded in a Terraform state, a
// create that derives the same key (another configuration, or a
// create_before_destroy replacement under the same name) is a Conflict and
// leaves the machine as it was, where an unrecorded one would be adopted.
func recordedNotAdopted(t *testing.T, s *suite) {
	u, ok := s.adapter.(adapter.Updater)
	if !ok {
		t.Skip("the adapter cannot update machines, so it cannot record them")
	}
	n := name(t, "rec")
	call, req := s.call(n), s.request(n)
	m := s.mustCreate(t, call, req)
	if m.Recorded {
		t.Fatalf("machine %s is recorded straight from Create; only a finished create or import records it", m.ID)
	}
	if err := s.retry(t, "record", func(ctx context.Context) error {
		return u.Update(ctx, m.ID, adapter.UpdateRequest{Record: true})
	}); err != nil {
		t.Fatalf("Update(Record) of %s: %v", m.ID, err)
	}
	got, err := s.adapter.Get(s.ctx(t), m.ID)
	if err != nil || !got.Recorded || !got.Managed || got.Key != call.IdempotencyKey {
		t.Fatalf("after Update(Record): %+v, %v; want recorded, managed, same key", got, err)
	}
	again, err := s.create(t, call, req)
	if err == nil {
		t.Fatalf("a create with the key of recorded machine %s returned machine %s, want Conflict", m.ID, again.ID)
	}
	wantCode(t, "Create with the key of a recorded machine", err, adapter.Conflict)
	if got, err := s.adapter.Get(s.ctx(t), m.ID); err != nil || !got.Recorded {
		t.Fatalf("the recorded machine changed after the refused create: %+v, %v", got, err)
	}
	name := n + "-renamed"
	if err := s.retry(t, "rename", func(ctx context.Context) error {
		return u.Update(ctx, m.ID, adapter.UpdateRequest{Name: &name, Mark: &adapter.Mark{Key: adapter.IdempotencyKey(s.scope, name), Fingerprint: got.Fingerprint}})
	}); err != nil {
		t.Fatalf("rename: %v", err)
	}
	if got, err := s.adapter.Get(s.ctx(t), m.ID); err != nil || !got.Recorded {
		t.Fatalf("a new mark must keep the recorded mark: %+v, %v", got, err)
	}
}
