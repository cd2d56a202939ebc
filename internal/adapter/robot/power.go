package robot

import (
	"context"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Robot's reset types (GET /reset/{n} lists a server's):
//
//	sw          Ctrl+Alt+Del to the operating system          → reboot
//	hw          the reset button                               → reset
//	power       a short press of the power button (ACPI)
//	power_long  a long press: the server goes off at once      → power_off
//	man         a technician resets it by hand
//
// power_on is Wake on LAN where the server has it: harmless to a server
// that is already on. Without it the only switch that starts a server is
// the power button, which would also ask a running one to shut down, and
// Robot cannot tell which the server is unless its reset answer says
// (operating_status); so power_on presses it only on a server Robot
// reports off, and is refused otherwise, with the way out.
var resetTypes = map[adapter.PowerAction]string{
	adapter.PowerOff:    "power_long",
	adapter.PowerReboot: "sw",
	adapter.PowerReset:  "hw",
}

type resetInfo struct {
	Types           []string `json:"type"`
	OperatingStatus string   `json:"operating_status"`
}

// Power does action to a managed server.
func (a *account) Power(ctx context.Context, id string, action adapter.PowerAction) error {
	if !capabilities.Offers(action) {
		return adapter.Errorf(adapter.Unsupported, "Robot servers do not offer %s; use power_on, power_off, reboot or reset", action.Verb()).WithField(adapter.FieldPower)
	}
	s, _, err := a.managed(ctx, id, action.Verb())
	if err != nil {
		return err
	}
	n := strconv.Itoa(s.Number)
	var reset struct {
		Reset resetInfo `json:"reset"`
	}
	if err := a.c.Get(ctx, "/reset/{n}", &reset, n); err != nil && !isCode(err, "RESET_NOT_AVAILABLE") {
		return fail("read the reset options of "+describe(s), err)
	}
	kind, err := chooseReset(s, action, reset.Reset)
	if err != nil {
		return err
	}
	if kind == "wol" {
		if err := a.c.Post(ctx, "/wol/{n}", url.Values{}, nil, n); err != nil {
			return fail(action.Verb()+" "+describe(s)+" (Wake on LAN)", err)
		}
		return nil
	}
	if err := a.c.Post(ctx, "/reset/{n}", url.Values{"type": {kind}}, nil, n); err != nil {
		return fail(action.Verb()+" "+describe(s)+" (reset type "+kind+")", err)
	}
	return nil
}

// chooseReset is the pure choice of what to send: "wol" or a reset type.
func chooseReset(s server, action adapter.PowerAction, r resetInfo) (string, error) {
	offered := "none"
	if len(r.Types) > 0 {
		offered = strings.Join(r.Types, ", ")
	}
	if action == adapter.PowerOn {
		switch {
		case s.Wol:
			return "wol", nil
		case slices.Contains(r.Types, "power") && isOff(r.OperatingStatus):
			return "power", nil
		}
		return "", adapter.Errorf(adapter.InvalidState,
			"power on %s: the server has no Wake on LAN, and Robot cannot tell whether it is off (pressing its power button would "+
				"shut down a running server); reset types offered: %s. Use reset to restart it, or switch it on in Robot's panel",
			describe(s), offered).WithField(adapter.FieldPower)
	}
	want := resetTypes[action]
	if !slices.Contains(r.Types, want) {
		return "", adapter.Errorf(adapter.Unsupported, "%s %s: Robot offers this server no %q reset, only: %s",
			action.Verb(), describe(s), want, offered).WithField(adapter.FieldPower)
	}
	return want, nil
}

// isOff reads operating_status, which Robot fills for some servers only.
func isOff(status string) bool {
	switch strings.ToLower(status) {
	case "off", "stopped", "not running", "shut off", "powered off":
		return true
	}
	return false
}
