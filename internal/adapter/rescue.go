package adapter

import (
	"context"
	"fmt"
)

// CapRescue is the capability of the Rescuer interface: booting a machine
// into the backend's rescue system, which the compute_instance_rescue
// action asks for.
const CapRescue Capability = "rescue"

// Rescuer boots a managed machine into its backend's rescue system (a small
// Linux booted from the network, not from the machine's disks) and returns
// once the machine runs it, read back as the backend then reports it.
//
// It acts only on a machine that claim holds, the rule Update keeps: a
// machine without the provider's mark is refused with AccessDenied, one
// whose mark carries another claim with Conflict wrapping ErrLostHold, each
// naming the machine's id, before anything is written (RefuseUnheld; the
// first is Unmarked, the one refusal every backend gives). The
// operator logs in to the rescue system with the account's SSH key; a
// password the backend hands out with the activation is never kept, so it
// cannot reach a log, an error or state.
type Rescuer interface {
	Rescue(ctx context.Context, id, claim string) (Machine, error)
}

// RefuseUnheld is the refusal every Rescuer makes of m, read just before it
// would write, unless claim holds it (Held); nil when it does. what names
// the operation ("boot into rescue").
func RefuseUnheld(what string, m Machine, claim string) error {
	switch {
	case !m.Managed:
		return Unmarked{What: what, Machine: fmt.Sprintf("machine %s (%q)", m.ID, m.Name), ID: m.ID,
			Lacks: "carries no mark of the provider"}.Refuse()
	case !Held(m, claim):
		return &Error{Code: Conflict, Err: ErrLostHold, Message: fmt.Sprintf(
			"%s: machine %s (%q) is held by another Terraform state (its mark carries another claim), so it is left alone; "+
				"act on it from the configuration whose state holds it", what, m.ID, m.Name)}
	}
	return nil
}

// Rescue forwards to the adapter's Rescuer, or answers Unsupported. The
// machine changes under the account's listing, which is dropped.
func (c *Cached) Rescue(ctx context.Context, id, claim string) (Machine, error) {
	r, ok := c.Adapter.(Rescuer)
	if !ok || !c.Capabilities().Has(CapRescue) {
		return Machine{}, Errorf(Unsupported, "the %s adapter cannot boot a machine into a rescue system", c.Kind())
	}
	defer c.Invalidate()
	return r.Rescue(ctx, id, claim)
}
