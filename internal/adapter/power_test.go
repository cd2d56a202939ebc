package adapter

import (
	"context"
	"slices"
	"testing"
)

func TestActionsFor(t *testing.T) {
	all := Capabilities{CapPower, CapShutdown, CapReboot, CapReset}
	for _, c := range []struct {
		name  string
		state State
		caps  Capabilities
		want  []PowerAction
	}{
		{"running, every action", StateRunning, all, []PowerAction{PowerOff, PowerShutdown, PowerReboot, PowerReset}},
		{"running, hard switch only", StateRunning, Capabilities{CapPower}, []PowerAction{PowerOff}},
		{"running, no reset", StateRunning, Capabilities{CapPower, CapShutdown, CapReboot}, []PowerAction{PowerOff, PowerShutdown, PowerReboot}},
		{"graceful actions without the Powerer", StateRunning, Capabilities{CapShutdown, CapReboot}, []PowerAction{}},
		{"stopped", StateStopped, all, []PowerAction{PowerOn}},
		{"stopped, no power", StateStopped, Capabilities{CapUpdate}, []PowerAction{}},
		{"pending", StatePending, all, []PowerAction{}},
		{"deleting", StateDeleting, all, []PowerAction{}},
		{"unknown", StateUnknown, all, []PowerAction{}},
	} {
		got := ActionsFor(c.state, c.caps)
		if !slices.Equal(got, c.want) || got == nil {
			t.Errorf("%s: ActionsFor(%s, %v) = %#v, want %v", c.name, c.state, c.caps, got, c.want)
		}
		for _, a := range got {
			if !c.caps.Offers(a) {
				t.Errorf("%s: %s is not offered by %v", c.name, a, c.caps)
			}
		}
	}
}

func TestPowerActionCapability(t *testing.T) {
	want := map[PowerAction]Capability{PowerOn: CapPower, PowerOff: CapPower, PowerShutdown: CapShutdown, PowerReboot: CapReboot, PowerReset: CapReset}
	for _, a := range PowerActions {
		if a.Capability() != want[a] {
			t.Errorf("%s needs %s, want %s", a, a.Capability(), want[a])
		}
		if a.Description() == "unknown power action" {
			t.Errorf("%s has no description", a)
		}
	}
	if (Capabilities{CapPower, CapReboot}).Offers("hibernate") {
		t.Error("an action that is not one of PowerActions must never be offered")
	}
}

// powerFake can do every power action and counts what reaches it; it is
// declared to offer on, off and reboot.
type powerFake struct {
	fakeAdapter
	calls []PowerAction
}

func (f *powerFake) Power(_ context.Context, _ string, a PowerAction) error {
	f.calls = append(f.calls, a)
	return nil
}

func TestCachedPowerRefusesWhatIsNotOffered(t *testing.T) {
	f := &powerFake{}
	c := NewCached(f, nil, 0).Declare(Capabilities{CapPower, CapReboot})
	for _, a := range []PowerAction{PowerShutdown, PowerReset} {
		if err := c.Power(context.Background(), "1", a); !Is(err, Unsupported) {
			t.Errorf("Power(%s) on an adapter without it: %v, want Unsupported", a, err)
		}
	}
	for _, a := range []PowerAction{PowerOff, PowerReboot} {
		if err := c.Power(context.Background(), "1", a); err != nil {
			t.Errorf("Power(%s): %v", a, err)
		}
	}
	if !slices.Equal(f.calls, []PowerAction{PowerOff, PowerReboot}) {
		t.Errorf("the adapter saw %v, want only the offered power_off and reboot", f.calls)
	}
}
