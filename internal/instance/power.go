package instance

import (
	"github.com/seedcompute/terraform-provider-compute/internal/power"
)

// The machine's power goes through the one power path (internal/power),
// which the power actions share: off is graceful first, bounded by
// shutdown_timeout, then the power is cut; a restart (a change of
// triggers_restart) is a reboot request bounded the same way, then a reset.

// defaultShutdownTimeout is shutdown_timeout's default.
const defaultShutdownTimeout = power.DefaultShutdownTimeout

// goalOf is the goal of a power attribute value.
func goalOf(p string) power.Goal {
	if p == powerOff {
		return power.Off
	}
	return power.On
}

// powerPath switches this resource's machines on the provider's clock.
func (r *Resource) powerPath() power.Path { return power.Path{Clock: r.clock()} }
