package conformance

import (
	"errors"
	"slices"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Rule 4, conservative states (internal/adapter's package documentation):
// every backend status maps onto one of the contract's states, with the raw
// word kept beside it; running only with an address; a machine being created
// is pending until it first runs, never stopped; nothing is stopped before it
// is, and a machine being deleted is deleting and still present.

var states = []adapter.State{adapter.StatePending, adapter.StateRunning, adapter.StateStopped, adapter.StateRescue,
	adapter.StateDeleting, adapter.StateDeleted, adapter.StateError, adapter.StateUnknown}

// checkMachine holds every machine the suite reads to the rules that do not
// depend on the situation.
func checkMachine(t *testing.T, what string, m adapter.Machine) {
	t.Helper()
	switch {
	case !slices.Contains(states, m.State):
		t.Errorf("%s: machine %s has state %q, which is not one of the contract's %v", what, m.ID, m.State, states)
	case m.RawState == "":
		t.Errorf("%s: machine %s (state %s) does not keep the backend's raw status", what, m.ID, m.State)
	case m.State == adapter.StateRunning && !m.HasAddress():
		t.Errorf("%s: machine %s is running without an address (raw %q)", what, m.ID, m.RawState)
	}
}

// situations pairs each staged situation with what Get must make of it.
var situations = []struct {
	situation Situation
	ok        func(adapter.State) bool
	want      string
}{
	{SituationProvisioning, func(s adapter.State) bool { return s == adapter.StatePending }, "pending"},
	{SituationStopping, func(s adapter.State) bool { return s != adapter.StateStopped }, "anything but stopped"},
	{SituationUnrecognised, func(s adapter.State) bool { return s == adapter.StateUnknown }, "unknown"},
	{SituationDeleting, func(s adapter.State) bool { return s == adapter.StateDeleting }, "deleting"},
	// Last: the machine does not get its addresses back.
	{SituationUnaddressed, func(s adapter.State) bool { return s != adapter.StateRunning }, "anything but running"},
}

// statesAreConservative stages each situation on a running machine and
// reads it back.
func statesAreConservative(t *testing.T, s *suite) {
	f := s.needFaults(t)
	n := name(t, "state")
	m := s.mustCreate(t, s.call(n), s.request(n))
	// Running, so no task of the backend's own overwrites a staged status.
	s.waitFor(t, m.ID, "running", func(m adapter.Machine, err error) bool { return err == nil && m.State == adapter.StateRunning })
	for _, c := range situations {
		t.Run(c.situation, func(t *testing.T) {
			raw, err := f.Stage(m.ID, c.situation)
			if errors.Is(err, errors.ErrUnsupported) {
				t.Skipf("the emulator cannot stage %s: %v", c.situation, err)
			}
			if err != nil {
				t.Fatalf("Stage(%s, %s): %v", m.ID, c.situation, err)
			}
			got := s.get(t, m.ID)
			if !c.ok(got.State) {
				t.Errorf("a machine %s (raw status %q) reads as %s, want %s", c.situation, raw, got.State, c.want)
			}
			if got.RawState != raw {
				t.Errorf("a machine %s has raw state %q, want the backend's %q kept", c.situation, got.RawState, raw)
			}
		})
	}
}

// createdIsNeverStopped follows a machine from its create until it runs:
// on its way it is never stopped, and it runs only with an address.
func createdIsNeverStopped(t *testing.T, s *suite) {
	n := name(t, "boot")
	m := s.mustCreate(t, s.call(n), s.request(n))
	seen := []string{string(m.State) + "/" + m.RawState}
	if m.State == adapter.StateStopped {
		t.Errorf("Create returned machine %s stopped (raw %q) although it was asked to start", m.ID, m.RawState)
	}
	s.waitFor(t, m.ID, "running", func(got adapter.Machine, err error) bool {
		if err != nil {
			return false
		}
		seen = append(seen, string(got.State)+"/"+got.RawState)
		if got.State == adapter.StateStopped {
			t.Errorf("machine %s, created to start, read as stopped (raw %q) before it first ran", m.ID, got.RawState)
		}
		return got.State == adapter.StateRunning
	})
	t.Logf("states from create to running: %v", seen)
}
