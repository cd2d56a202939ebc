package hcloud

import (
	"context"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// The power actions beyond the hard switch map onto the API's shutdown
// (ACPI), reboot (ACPI) and reset (the power cycle). The API's action for
// shutdown and reboot only says that the request reached the server, not
// that the guest acted on it, so shutdown returns with the server possibly
// still running (the caller waits for off and falls back to poweroff), and a
// reboot the guest ignores cannot be told from one it honoured: a caller that
// must be sure resets.

// powerBeyondSwitch does shutdown, reboot and reset; Power does on and off.
func (a *account) powerBeyondSwitch(ctx context.Context, id string, action adapter.PowerAction) error {
	verb := action.Verb()
	s, err := a.managedServer(ctx, id, verb)
	if err != nil {
		return err
	}
	what := verb + " " + describe(s)
	var act *hcloud.Action
	switch action {
	case adapter.PowerShutdown:
		if s, err = a.afterQueuedStart(ctx, id, what, s); err != nil || s.Status == hcloud.ServerStatusOff {
			return err
		}
		act, _, err = a.client.Server.Shutdown(ctx, s)
	case adapter.PowerReboot, adapter.PowerReset:
		if s.Status != hcloud.ServerStatusRunning {
			// The API would start an off server on reset: a restart
			// must never be how a stopped machine comes back.
			return adapter.Errorf(adapter.InvalidState, "%s: the server is %s, and a %s restarts a running server and never starts one; power it on instead",
				what, s.Status, action.Verb())
		}
		if action == adapter.PowerReboot {
			act, _, err = a.client.Server.Reboot(ctx, s)
		} else {
			act, _, err = a.client.Server.Reset(ctx, s)
		}
	default:
		return adapter.Errorf(adapter.InvalidInput, "power action %q is not known; use one of %v", action, adapter.PowerActions).WithField("power")
	}
	if err != nil {
		return fail(what, err)
	}
	if err := a.waitAction(ctx, what, act); err != nil {
		return err
	}
	if action == adapter.PowerShutdown {
		// Sent to a running server: no start of its create is queued
		// behind it, so reads of it off need not ask.
		a.starts.done(s.ID)
	}
	return nil
}

// afterQueuedStart waits, for a server that is not running, for the start
// its create queued, if any, and reads it again: shut down before that start,
// the server would be switched on behind the shutdown, as Power's poweroff
// knows too.
func (a *account) afterQueuedStart(ctx context.Context, id, what string, s *hcloud.Server) (*hcloud.Server, error) {
	if s.Status == hcloud.ServerStatusRunning {
		return s, nil
	}
	waited, err := a.awaitStart(ctx, what, s)
	if err != nil || !waited {
		return s, err
	}
	return a.managedServer(ctx, id, adapter.PowerShutdown.Verb())
}

// actionsOf is what the adapter can do to a server now: nothing while an
// action of its own locks it, nothing to one without our mark (Power refuses
// it), and otherwise what its state allows.
func actionsOf(state adapter.State, locked, managed bool) []adapter.PowerAction {
	if locked || !managed {
		return []adapter.PowerAction{}
	}
	return adapter.ActionsFor(state, capabilities)
}
