package conformance

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// A boot into rescue (adapter.Rescuer) is a write onto a running machine,
// and keeps the rule every write keeps: only a machine the caller's claim
// holds. The case runs for every adapter that declares CapRescue; a target
// says, through InRescue, what its backend records of rescue, so a refusal
// is proven to have armed and booted nothing.

// rescueBoots: a held machine boots into rescue and is read back running;
// one without the mark, and one another claim holds, are refused naming
// their id, with nothing armed or booted.
func rescueBoots(t *testing.T, s *suite) {
	r, ok := s.adapter.(adapter.Rescuer)
	if !s.Definition.Capabilities.Has(adapter.CapRescue) {
		t.Skip("the adapter does not declare " + string(adapter.CapRescue))
	}
	if !ok {
		t.Fatalf("the adapter declares %s but does not implement adapter.Rescuer", adapter.CapRescue)
	}
	if s.InRescue == nil {
		t.Fatalf("a target whose adapter declares %s must say through InRescue what its backend records of rescue", adapter.CapRescue)
	}
	rescue := func(id, claim string) (adapter.Machine, error) {
		var m adapter.Machine
		err := s.retry(t, "rescue "+id, func(ctx context.Context) (err error) { m, err = r.Rescue(ctx, id, claim); return err })
		return m, err
	}
	refused := func(what, id, claim string, code adapter.Code) error {
		t.Helper()
		_, err := rescue(id, claim)
		wantCode(t, what, err, code)
		if !strings.Contains(err.Error(), id) {
			t.Errorf("%s: the refusal does not name machine %s: %v", what, id, err)
		}
		if s.InRescue(t, id) {
			t.Errorf("%s: the refused Rescue armed or booted the rescue system of machine %s", what, id)
		}
		return err
	}

	n := name(t, "rescue")
	call := s.call(n)
	m := s.mustCreate(t, call, s.request(n))
	s.waitFor(t, m.ID, "running", func(got adapter.Machine, err error) bool { return err == nil && got.State == adapter.StateRunning })

	if err := refused("a Rescue with another state's claim", m.ID, adapter.NewClaim(), adapter.Conflict); !errors.Is(err, adapter.ErrLostHold) {
		t.Errorf("the refusal of another state's machine does not wrap ErrLostHold: %v", err)
	}
	if s.SeedUnmarked != nil {
		err := refused("a Rescue of a machine without the mark", s.SeedUnmarked(t, name(t, "unmarked")), call.Claim, adapter.AccessDenied)
		if !errors.Is(err, adapter.ErrUnmarked) {
			t.Errorf("the refusal of an unmarked machine is not adapter.Unmarked's (it does not wrap ErrUnmarked): %v", err)
		}
	}

	got, err := rescue(m.ID, call.Claim)
	if err != nil {
		t.Fatalf("Rescue(%s) of a held machine: %v", m.ID, err)
	}
	checkMachine(t, "Rescue", got)
	if got.ID != m.ID || !got.Managed || got.Claim != call.Claim {
		t.Errorf("Rescue returned machine %s managed %t claim %q; want machine %s, still managed with claim %q", got.ID, got.Managed, got.Claim, m.ID, call.Claim)
	}
	if got.State != adapter.StateRunning && got.State != adapter.StateRescue {
		t.Errorf("after Rescue machine %s is %s (raw %q), want running or rescue", m.ID, got.State, got.RawState)
	}
	if !s.InRescue(t, m.ID) {
		t.Errorf("Rescue returned, but the backend does not record machine %s in rescue", m.ID)
	}
}
