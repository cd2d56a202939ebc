package adapter

import "time"

// State is the conservative, backend-neutral state of a machine.
type State string

// The states a backend's statuses are mapped onto. A machine is "running" only
// when it has an address, and one created but never started is "pending",
// never "stopped". StateRescue is general rather than one backend's: it is
// a machine running its backend's rescue system (a small system booted from
// the network instead of its disks), a state any backend with a rescue
// system has. A backend reports it only where its API says so (the shipped
// adapters report a machine in rescue as running, which the conformance case
// rescueBoots accepts as well); it offers no power action (ActionsFor).
const (
	StatePending  State = "pending"
	StateRunning  State = "running"
	StateStopped  State = "stopped"
	StateRescue   State = "rescue"
	StateDeleting State = "deleting"
	StateDeleted  State = "deleted"
	StateError    State = "error"
	StateUnknown  State = "unknown"
)

// Machine is one machine as the backend reports it.
type Machine struct {
	ID       string
	Name     string
	State    State
	RawState string // the backend's own status word, kept for the user
	OfferID  string
	Image    string
	Location string
	IPv4     string
	IPv6     string
	// Labels are the user's labels, without the adapter's marks.
	Labels    map[string]string
	CreatedAt time.Time
	// Managed is true when the machine carries our mark; Key, Fingerprint
	// and Claim are the mark's values (see NewClaim for what a claim is).
	// Unconfirmed is the mark's too: the claim was written by a create and
	// no refresh of its state has confirmed it yet (see Adoptable).
	Managed     bool
	Key         string
	Fingerprint string
	Claim       string
	Unconfirmed bool
	// Adopted is set by Create when it returned a machine it found by key
	// instead of one it created; PriorClaim is then the claim the machine
	// carried before Create wrote its own.
	Adopted    bool
	PriorClaim string
	// Actions are the power actions the adapter can do to the machine in
	// the state it was read in, always among those its capabilities offer
	// (see ActionsFor); empty when it can do none now.
	Actions []PowerAction
}

// HasAddress reports whether the machine can be reached at all.
func (m Machine) HasAddress() bool { return m.IPv4 != "" || m.IPv6 != "" }

// Conclude ends a reading of a machine for a backend without locks or
// other endings of its own: one the backend calls running is pending while
// it has no address (rule 4, conservative states), and only a managed
// machine offers actions (rule 8, only marked machines are changed), those
// ActionsFor gives its state under caps.
func (m *Machine) Conclude(caps Capabilities) {
	if m.State == StateRunning && !m.HasAddress() {
		m.State = StatePending
	}
	m.Actions = nil
	if m.Managed {
		m.Actions = ActionsFor(m.State, caps)
	}
}
