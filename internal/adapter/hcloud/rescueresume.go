package hcloud

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// A boot into rescue can meet the actions of one that was interrupted (a
// killed Terraform, an answer lost on the way) still running on the server:
// an enable_rescue that is arming it, or the reset that boots it. The API
// locks a server while one of its actions runs, so whatever Rescue sends
// meanwhile is refused `locked`; it waits for them instead, through the
// server's own list of running actions, and does not do again what they
// did. A second reset would power-cycle a server that is booting the rescue
// system already, or that an operator has logged in to.

// Commands of the API's server actions that Rescue looks for.
const (
	commandEnableRescue = "enable_rescue"
	commandReset        = "reset_server"
)

// underWay is what the actions found running on a server did, once they
// ended: rescue armed by a running enable_rescue, or a reset of the armed
// server that boots it.
type underWay struct{ armed, booting bool }

// resumeRunning waits for the actions running on s before Rescue arms it,
// and says what they did: a reset while rescue was armed is the boot into
// it, under way; an enable_rescue armed it, as the server now shows.
func (a *account) resumeRunning(ctx context.Context, step string, s *hcloud.Server) (underWay, error) {
	done, err := a.awaitRunning(ctx, step, s)
	if err != nil {
		return underWay{}, err
	}
	if s.RescueEnabled && slices.Contains(done, commandReset) {
		return underWay{armed: true, booting: true}, nil
	}
	if !slices.Contains(done, commandEnableRescue) {
		return underWay{}, nil
	}
	cur, err := a.readServerRetried(ctx, strconv.FormatInt(s.ID, 10))
	if err != nil {
		return underWay{}, err
	}
	return underWay{armed: cur.RescueEnabled}, nil
}

// awaitRunning waits for the actions running on s to end and returns the
// commands of those that succeeded; one that failed did nothing to wait
// for. Listing them counts as a read of each, as the API's own reads do.
func (a *account) awaitRunning(ctx context.Context, step string, s *hcloud.Server) ([]string, error) {
	what := step + ": list the server's running actions"
	var running []*hcloud.Action
	err := a.retried(ctx, what, func(ctx context.Context) (err error) {
		running, err = a.client.Server.Action.AllFor(ctx, s, hcloud.ActionListOpts{
			ListOpts: hcloud.ListOpts{PerPage: pageSize},
			Status:   []hcloud.ActionStatus{hcloud.ActionStatusRunning},
		})
		return fail(what, err)
	})
	if err != nil {
		return nil, err
	}
	var done []string
	for _, act := range running {
		failed, err := a.awaitAction(ctx, fmt.Sprintf("%s: wait for the running action %d (%s)", step, act.ID, act.Command), act)
		if err != nil {
			return nil, err
		}
		if failed == nil {
			done = append(done, act.Command)
		}
	}
	return done, nil
}

// isLocked reports whether err is the API's answer `locked`: an action of
// the server runs, and the request was not carried out.
func isLocked(err error) bool { return hcloud.IsError(err, hcloud.ErrorCodeLocked) }

// armedFailure is a failure of Rescue after enable_rescue was sent, with
// what it leaves: rescue armed (or, when armed is false, possibly armed) on
// the server, which its next boot takes, and the way out. A reset that got
// no answer (resetUnanswered) may still be carried out, which the message
// says too.
func (a *account) armedFailure(err error, s *hcloud.Server, armed, resetUnanswered bool) error {
	var e *adapter.Error
	if !errors.As(err, &e) {
		e = &adapter.Error{Code: adapter.CodeOf(err), Message: err.Error(), Err: err}
	}
	out := *e
	state := "rescue is still armed on " + describe(s) + ", so its next boot takes it"
	if !armed {
		state = "rescue may be armed on " + describe(s) + " (the enable_rescue request may have been carried out), so its next boot may take it"
	}
	out.Message += "; " + state
	if resetUnanswered {
		out.Message += ", and the reset that got no answer may still be carried out and boot it"
	}
	out.Message += ": invoke the action again, which waits for an action still running on the server and resets only when none " +
		"boots it, or " + undoRescue(s.Name)
	if out.Err == nil {
		out.Err = e
	}
	return &out
}

// undoRescue is how an operator withdraws a rescue left armed on server
// name by hand: the way out of a failed boot into rescue, and, for a
// server named SERVER, the adapter's adapter.NoteRescueUndo.
func undoRescue(name string) string {
	return "withdraw it with `hcloud server disable-rescue " + name + "`, or in the server's Rescue tab in the Hetzner Cloud Console"
}
