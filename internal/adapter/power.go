package adapter

import (
	"slices"
	"strings"
)

// Power actions beyond the hard switch. The graceful ones ask the guest's
// operating system, over ACPI, to act: the backend can deliver the request but
// not make the guest honour it, so a caller that needs the machine off waits
// for the stopped state and falls back to PowerOff, and one that needs a
// restart falls back to PowerReset.
const (
	// PowerShutdown asks the guest to shut down. It returns once the
	// backend delivered the request; the machine may still be running then,
	// and stays running if the guest ignores ACPI. On a stopped machine it
	// does nothing.
	PowerShutdown PowerAction = "shutdown"
	// PowerReboot asks the guest to restart. It returns once the backend
	// reports the request done; where the backend can tell that the guest
	// did not restart it is an error. It is refused with InvalidState on a
	// machine that is not running: a reboot never starts a machine.
	PowerReboot PowerAction = "reboot"
	// PowerReset cuts the power and starts the machine again, as pulling
	// and replugging the cord would. Refused with InvalidState on a machine
	// that is not running.
	PowerReset PowerAction = "reset"
)

// The capabilities of the power actions beyond on and off. Each needs the
// Powerer interface (CapPower) as well: it is one more value of its action.
const (
	CapShutdown Capability = "shutdown"
	CapReboot   Capability = "reboot"
	CapReset    Capability = "reset"
)

// PowerActions lists every power action, in the order machines report them.
var PowerActions = []PowerAction{PowerOn, PowerOff, PowerShutdown, PowerReboot, PowerReset}

// Capability is what an adapter declares to offer a: on and off come with
// CapPower itself, the others each with their own.
func (a PowerAction) Capability() Capability {
	switch a {
	case PowerShutdown:
		return CapShutdown
	case PowerReboot:
		return CapReboot
	case PowerReset:
		return CapReset
	}
	return CapPower
}

// Description says in one sentence what a does, for documentation.
func (a PowerAction) Description() string {
	switch a {
	case PowerOn:
		return "start a stopped machine"
	case PowerOff:
		return "cut the power at once, without asking the guest"
	case PowerShutdown:
		return "ask the guest to shut down over ACPI; the machine stays on if the guest ignores the request"
	case PowerReboot:
		return "ask the guest to restart over ACPI"
	case PowerReset:
		return "cut the power and start the machine again at once, without asking the guest"
	}
	return "unknown power action"
}

// Verb is a as messages say it: "power on", "shutdown", "reset".
func (a PowerAction) Verb() string { return strings.ReplaceAll(string(a), "_", " ") }

// Offers reports whether caps declare everything a needs.
func (caps Capabilities) Offers(a PowerAction) bool {
	return slices.Contains(PowerActions, a) && caps.Has(CapPower) && caps.Has(a.Capability())
}

// ActionsFor is what a machine in state can be asked to do, among the power
// actions caps offer: a running machine can be stopped or restarted, a
// stopped one started. Pending and deleting machines have a task of the
// backend's own under way, and error, unknown and rescue are states the
// contract cannot speak for, so they offer nothing; an adapter that knows
// better for its backend builds its own list, still within caps.
func ActionsFor(state State, caps Capabilities) []PowerAction {
	var want []PowerAction
	switch state {
	case StateRunning:
		want = []PowerAction{PowerOff, PowerShutdown, PowerReboot, PowerReset}
	case StateStopped:
		want = []PowerAction{PowerOn}
	}
	out := []PowerAction{}
	for _, a := range want {
		if caps.Offers(a) {
			out = append(out, a)
		}
	}
	return out
}

// Can reports whether the adapter said it can do a to the machine now.
func (m Machine) Can(a PowerAction) bool { return slices.Contains(m.Actions, a) }
