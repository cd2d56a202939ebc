package conformance

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Available actions (Machine.Actions) are what the Terraform layer shows and
// acts on, so they may only promise what the adapter declared and what the
// machine's state allows: a running machine is stopped or restarted, a
// stopped one started, anything else (pending, deleting, an unknown status)
// offers nothing (but a pending machine that is up where the target says
// PoweredWhilePending), and neither does a machine without the adapter's mark,
// which Power refuses. The graceful actions keep their own rules: a shutdown
// of a stopped machine does nothing, a reboot or reset never starts one.

// allowed is what a machine in state may offer at most. Where Get cannot
// see power (not observable), running and stopped are one state, up and
// powered either way as far as the backend knows, and may offer the
// actions of both; every other state still offers nothing.
func allowed(state adapter.State, observable, poweredWhilePending bool) []adapter.PowerAction {
	running := []adapter.PowerAction{adapter.PowerOff, adapter.PowerShutdown, adapter.PowerReboot, adapter.PowerReset}
	stopped := []adapter.PowerAction{adapter.PowerOn}
	switch {
	case poweredWhilePending && state == adapter.StatePending:
		return running
	case !observable && (state == adapter.StateRunning || state == adapter.StateStopped):
		return append(running, stopped...)
	case state == adapter.StateRunning:
		return running
	case state == adapter.StateStopped:
		return stopped
	}
	return nil
}

// checkActions holds a machine's actions to its adapter's capabilities and
// to its state.
func (s *suite) checkActions(t *testing.T, what string, caps adapter.Capabilities, m adapter.Machine) {
	t.Helper()
	allowed := func(state adapter.State) []adapter.PowerAction {
		return allowed(state, s.PowerObservable, s.PoweredWhilePending)
	}
	seen := map[adapter.PowerAction]bool{}
	for _, a := range m.Actions {
		switch {
		case seen[a]:
			t.Errorf("%s: machine %s lists action %s twice: %v", what, m.ID, a, m.Actions)
		case !caps.Offers(a):
			t.Errorf("%s: machine %s offers %s, which the adapter's capabilities (%v) do not", what, m.ID, a, caps)
		case !slices.Contains(allowed(m.State), a):
			t.Errorf("%s: machine %s in state %s (raw %q) offers %s; that state allows only %v", what, m.ID, m.State, m.RawState, a, allowed(m.State))
		}
		seen[a] = true
	}
}

// actionsMatchTheState follows a machine through running and stopped (and,
// with fault hooks, the in-between statuses) and checks its actions on each
// read, by Get and by List.
func actionsMatchTheState(t *testing.T, s *suite) {
	caps := s.Definition.Capabilities
	for _, c := range []adapter.Capability{adapter.CapShutdown, adapter.CapReboot, adapter.CapReset} {
		if caps.Has(c) && !caps.Has(adapter.CapPower) {
			t.Errorf("capability %s is declared without %s: every power action goes through the Powerer", c, adapter.CapPower)
		}
	}
	n := name(t, "actions")
	m := s.mustCreate(t, s.call(n), s.request(n))
	s.checkActions(t, "Create", caps, m)
	if !s.PowerObservable {
		// Power cannot be seen, so the machine is followed through the
		// backend's own statuses: up, then each staged one.
		s.waitFor(t, m.ID, "running", func(got adapter.Machine, err error) bool { return err == nil && got.State == adapter.StateRunning })
		got := s.get(t, m.ID)
		s.checkActions(t, "Get", caps, got)
		if caps.Offers(adapter.PowerOff) && !got.Can(adapter.PowerOff) {
			t.Errorf("running machine %s offers %v, not %s, which the adapter can do", m.ID, got.Actions, adapter.PowerOff)
		}
		s.checkListed(t, caps, m.ID)
		s.checkStaged(t, caps, m.ID)
		return
	}
	// Once settled, a machine offers at least the hard switch to the other
	// state: an adapter that can power machines must say it can.
	settled := func(state adapter.State, want adapter.PowerAction) {
		t.Helper()
		s.waitFor(t, m.ID, string(state)+" offering "+string(want), func(got adapter.Machine, err error) bool {
			if err != nil {
				return false
			}
			s.checkActions(t, "Get", caps, got)
			return got.State == state && (!caps.Offers(want) || got.Can(want))
		})
		s.checkListed(t, caps, m.ID)
	}
	settled(adapter.StateRunning, adapter.PowerOff)
	p, ok := s.adapter.(adapter.Powerer)
	if !ok {
		return
	}
	if err := s.retry(t, "power off", func(ctx context.Context) error { return p.Power(ctx, m.ID, adapter.PowerOff) }); err != nil {
		t.Fatalf("Power(%s, power_off): %v", m.ID, err)
	}
	settled(adapter.StateStopped, adapter.PowerOn)
	s.checkStaged(t, caps, m.ID)
}

// checkStaged puts machine id through each situation the emulator can
// stage and checks the actions it then offers.
func (s *suite) checkStaged(t *testing.T, caps adapter.Capabilities, id string) {
	t.Helper()
	if s.Faults == nil {
		return
	}
	for _, c := range situations {
		raw, err := s.Faults.Stage(id, c.situation)
		if errors.Is(err, errors.ErrUnsupported) {
			continue
		}
		if err != nil {
			t.Fatalf("Stage(%s, %s): %v", id, c.situation, err)
		}
		got := s.get(t, id)
		s.checkActions(t, "Get of a machine "+c.situation+" (raw "+raw+")", caps, got)
	}
}

// checkListed checks the actions of machine id as the listing reports them.
func (s *suite) checkListed(t *testing.T, caps adapter.Capabilities, id string) {
	t.Helper()
	l, ok := s.adapter.(adapter.Lister)
	if !ok {
		return
	}
	var ms []adapter.Machine
	if err := s.retry(t, "list", func(ctx context.Context) (err error) { ms, err = l.List(ctx); return err }); err != nil {
		t.Fatalf("List: %v", err)
	}
	for _, m := range ms {
		if m.ID == id {
			s.checkActions(t, "List", caps, m)
		}
	}
}

// unmarkedOffersNothing: a machine the adapter will not power offers no
// action.
func unmarkedOffersNothing(t *testing.T, s *suite) {
	if s.SeedUnmarked == nil {
		t.Skip("the target cannot seed unmarked machines")
	}
	id := s.SeedUnmarked(t, name(t, "unmarked"))
	if m := s.get(t, id); len(m.Actions) != 0 {
		t.Errorf("unmarked machine %s offers %v, but Power refuses it", id, m.Actions)
	}
}

// gracefulPowerActions: each graceful action the adapter offers works on a
// running machine, a shutdown of a stopped one does nothing, and a reboot or
// reset of a stopped one is InvalidState and leaves it stopped.
func gracefulPowerActions(t *testing.T, s *suite) {
	caps := s.Definition.Capabilities
	p, ok := s.adapter.(adapter.Powerer)
	if !ok || !(caps.Offers(adapter.PowerShutdown) || caps.Offers(adapter.PowerReboot) || caps.Offers(adapter.PowerReset)) {
		t.Skip("the adapter offers no graceful power action")
	}
	n := name(t, "graceful")
	m := s.mustCreate(t, s.call(n), s.request(n))
	power := func(action adapter.PowerAction) error {
		return s.retry(t, action.Verb(), func(ctx context.Context) error { return p.Power(ctx, m.ID, action) })
	}
	if !s.PowerObservable {
		// Neither a restart nor a stop can be seen: each graceful action
		// must succeed on the machine as created and reach it as itself.
		// What a stopped machine does with them is the backend's secret.
		for _, action := range []adapter.PowerAction{adapter.PowerReboot, adapter.PowerReset, adapter.PowerShutdown} {
			if caps.Offers(action) {
				s.powerReaches(t, p, m.ID, action)
			}
		}
		return
	}
	is := func(state adapter.State) {
		t.Helper()
		s.waitFor(t, m.ID, string(state), func(got adapter.Machine, err error) bool { return err == nil && got.State == state })
	}
	is(adapter.StateRunning)
	for _, action := range []adapter.PowerAction{adapter.PowerReboot, adapter.PowerReset} {
		if !caps.Offers(action) {
			continue
		}
		if err := power(action); err != nil {
			t.Errorf("Power(%s, %s) of a running machine: %v", m.ID, action, err)
		}
		is(adapter.StateRunning)
	}
	if caps.Offers(adapter.PowerShutdown) {
		// The target's guests honour ACPI: a test image does.
		if err := power(adapter.PowerShutdown); err != nil {
			t.Fatalf("Power(%s, shutdown): %v", m.ID, err)
		}
	} else if err := power(adapter.PowerOff); err != nil {
		t.Fatalf("Power(%s, power_off): %v", m.ID, err)
	}
	is(adapter.StateStopped)
	if caps.Offers(adapter.PowerShutdown) {
		if err := power(adapter.PowerShutdown); err != nil {
			t.Errorf("Power(%s, shutdown) of a stopped machine: %v, want nothing done", m.ID, err)
		}
	}
	for _, action := range []adapter.PowerAction{adapter.PowerReboot, adapter.PowerReset} {
		if caps.Offers(action) {
			wantCode(t, "Power("+string(action)+") of a stopped machine", power(action), adapter.InvalidState)
		}
	}
	if got := s.get(t, m.ID); got.State != adapter.StateStopped {
		t.Errorf("after refused restarts machine %s is %s, want still stopped", m.ID, got.State)
	}
}

// powerReaches sends action to machine id and checks that it succeeds and,
// where the target reports what its machines receive, that the machine
// received exactly this action once.
func (s *suite) powerReaches(t *testing.T, p adapter.Powerer, id string, action adapter.PowerAction) {
	t.Helper()
	var before []adapter.PowerAction
	if s.PowerReceived != nil {
		before = s.PowerReceived(t, id)
	}
	if err := s.retry(t, action.Verb(), func(ctx context.Context) error { return p.Power(ctx, id, action) }); err != nil {
		t.Fatalf("Power(%s, %s): %v", id, action, err)
	}
	if s.PowerReceived == nil {
		return
	}
	got := s.PowerReceived(t, id)
	if len(got) != len(before)+1 || got[len(got)-1] != action {
		t.Errorf("Power(%s, %s) succeeded, but the machine received %v after %v: want %s once", id, action, got[len(before):], before, action)
	}
}
