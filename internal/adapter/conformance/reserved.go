package conformance

import (
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// reservedLabelsRefused: a user's label that the mark's spelling reserves
// would forge the mark (managed=true on a machine the provider never made)
// or take it off, so Create and Update refuse it with InvalidInput on the
// labels before anything is written (rule 8, only marked machines are
// changed).
func reservedLabelsRefused(t *testing.T, s *suite) {
	if s.ReservedLabel == "" || s.NoLabels {
		t.Skip("the target names no label reserved for the mark")
	}
	forged := map[string]string{"suite": "conformance", s.ReservedLabel: "true"}
	refused := func(what string, err error) {
		t.Helper()
		if !adapter.Is(err, adapter.InvalidInput) || adapter.FieldOf(err) != adapter.FieldLabels {
			t.Errorf("%s with label %s: %v (field %q), want InvalidInput on labels", what, s.ReservedLabel, err, adapter.FieldOf(err))
		}
	}
	n := name(t, "reserved")
	req := s.request(n)
	req.Labels = forged
	m, err := s.adapter.Create(s.ctx(t), s.call(n), req)
	if err == nil {
		s.cleanup(t, m.ID)
	}
	refused("Create", err)

	u, ok := s.adapter.(adapter.Updater)
	if !ok {
		return
	}
	n = name(t, "reserved")
	m = s.mustCreate(t, s.call(n), s.request(n))
	_, err = u.Update(s.ctx(t), m.ID, adapter.UpdateRequest{Labels: forged})
	refused("Update", err)
	if after := s.get(t, m.ID); !after.Managed || after.Key != m.Key || len(after.Labels) != len(m.Labels) {
		t.Errorf("the refused Update changed machine %s from %+v to %+v", m.ID, m, after)
	}
}
