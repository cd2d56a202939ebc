package poweraction

import (
	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/power"
)

// kind is one action: what it asks the machine, in the contract's terms.
type kind struct {
	// action is the power action whose capability the adapter must declare
	// (adapter.Capabilities.Offers), and its name in available_actions;
	// empty for the boot into rescue.
	action adapter.PowerAction
	// rescue is the boot into the backend's rescue system, which is no
	// power action: the adapter declares adapter.CapRescue and does it
	// through adapter.Rescuer, waiting itself until the machine runs it.
	rescue bool
	// goal is where the power path brings the machine.
	goal power.Goal
	// graceful actions ask the guest first and fall back after
	// shutdown_timeout: they take that attribute.
	graceful bool
	// running actions act on a running machine only: a reboot or a reset
	// never starts a machine.
	running bool
	// summary is the first sentence of the action's documentation.
	summary string
	// Refused is every refusal's and failure's summary, a literal so that
	// the summary scan of internal/tfdiag checks its pattern.
	Refused string
	// nextPlan says what the instance's next plan shows after it, when
	// that is more than nothing.
	nextPlan string
}

// offNextPlan is what the next plan shows after a machine was switched off.
const offNextPlan = " After it, an instance whose configuration says `power = \"on\"` shows `power = \"off\" -> \"on\"` in its next " +
	"plan, and the next apply starts the machine again: set `power = \"off\"` on the instance to keep it off."

// kinds are the actions, in the order the documentation lists them.
var kinds = []kind{
	{action: adapter.PowerOn, goal: power.On, Refused: "Unable to power on machine",
		summary:  "Starts a stopped machine and waits until it runs with an address. A machine that already runs is left as it is.",
		nextPlan: " After it, an instance whose configuration says `power = \"off\"` shows `power = \"on\" -> \"off\"` in its next plan."},
	{action: adapter.PowerShutdown, goal: power.Off, graceful: true, Refused: "Unable to shut down machine",
		summary: "Asks the guest to shut down (ACPI) and waits until the machine is off; when it is not off within `shutdown_timeout`, " +
			"its power is cut, as `power = \"off\"` does on `compute_instance`. A stopped machine is left as it is.",
		nextPlan: offNextPlan},
	{action: adapter.PowerOff, goal: power.Off, Refused: "Unable to power off machine",
		summary: "Cuts the machine's power at once, without asking the guest, and waits until the machine is off. A stopped machine " +
			"is left as it is.",
		nextPlan: offNextPlan},
	{action: adapter.PowerReboot, goal: power.Restarted, graceful: true, running: true, Refused: "Unable to reboot machine",
		summary: "Asks the guest to restart (ACPI) and waits until the machine runs again; when the reboot is not done within " +
			"`shutdown_timeout` and the backend can reset, the machine is reset, as a change of `triggers_restart` does on " +
			"`compute_instance`. Refused on a machine that is not running: a reboot never starts a machine."},
	{action: adapter.PowerReset, goal: power.Restarted, running: true, Refused: "Unable to reset machine",
		summary: "Cuts the power and starts the machine again at once, without asking the guest, and waits until it runs again. " +
			"Refused on a machine that is not running."},
	{rescue: true, running: true, Refused: "Unable to boot machine into rescue",
		// What each backend's boot waits for, who logs in how, and how an
		// armed rescue is withdrawn come from its adapter's notes
		// (rescueDoc).
		summary: "Boots the machine into its backend's rescue system, a small Linux started from the network instead of the machine's " +
			"disks, and waits until it runs it. The backend's rescue password, where it hands one out, is never kept: it reaches " +
			"no log, diagnostic or state. Refused on a machine that is not running.",
		nextPlan: " A machine in its rescue system reads as running, so the next plan of an instance with `power = \"on\"` is empty." +
			"\n\nA `compute_bootstrap_host` booted into rescue (`instance = compute_bootstrap_host.NAME`) keeps `ready`: it reports " +
			"the install, not what the machine runs now (the provider does not probe SSH on refresh), so it stays `true` while the " +
			"host runs rescue, and its next plan is empty; the host's next reboot starts the installed system again. An apply " +
			"that replaces the host installs from the rescue system the action booted, without resetting it again." +
			"\n\nAn invocation interrupted after it armed rescue (a Ctrl-C, a killed run, its `timeout`) may leave rescue armed, " +
			"and the machine's next boot, whoever causes it, then starts the rescue system; the plan does not show it. Invoke the " +
			"action again, which boots rescue and so disarms it, or withdraw it by hand."},
}

// offeredBy reports whether an adapter with caps can do the action.
func (k kind) offeredBy(caps adapter.Capabilities) bool {
	if k.rescue {
		return caps.Has(adapter.CapRescue)
	}
	return caps.Offers(k.action)
}

// capability is the one the adapter declares for the action, whose
// settings the account must give (adapter.Definition.Lacks).
func (k kind) capability() adapter.Capability {
	if k.rescue {
		return adapter.CapRescue
	}
	return k.action.Capability()
}

// typeName is the action's type name: compute_instance_ and the power
// action's name as available_actions lists it.
func (k kind) typeName() string {
	if k.rescue {
		return "compute_instance_rescue"
	}
	return "compute_instance_" + string(k.action)
}

// verb is the action as a message asks for it: "to shut down".
func (k kind) verb() string {
	if k.action == adapter.PowerShutdown {
		return "shut down"
	}
	return k.noun()
}

// noun is the action as a message names it.
func (k kind) noun() string {
	if k.rescue {
		return "boot into rescue"
	}
	switch k.action {
	case adapter.PowerOn:
		return "power on"
	case adapter.PowerOff:
		return "power off"
	}
	return string(k.action)
}
