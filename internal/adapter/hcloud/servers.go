package hcloud

import (
	"context"
	"maps"
	"regexp"
	"strconv"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// pageSize is the API's maximum page size: the fewer requests per listing,
// the fewer chances of a rate limit.
const pageSize = 50

// Get reads one server. Only the API's own not_found is NotFound; a server
// being deleted is still there, in state deleting.
func (a *account) Get(ctx context.Context, id string) (adapter.Machine, error) {
	s, err := a.server(ctx, id)
	if err != nil {
		return adapter.Machine{}, err
	}
	return a.machine(ctx, s), nil
}

func (a *account) server(ctx context.Context, id string) (*hcloud.Server, error) {
	n, err := parseID(id)
	if err != nil {
		return nil, err
	}
	s, _, err := a.client.Server.GetByID(ctx, n)
	if err != nil {
		return nil, fail("read server "+id, err)
	}
	if s == nil {
		// hcloud-go answers nil only for the API's not_found; it proves
		// absence once the endpoint is known to be the API.
		if err := a.confirmAPI(ctx); err != nil {
			return nil, err
		}
		return nil, adapter.Errorf(adapter.NotFound, "server %s does not exist in the project (the API answered not_found)", id)
	}
	return s, nil
}

// managedServer reads a server and refuses it unless it carries our mark.
func (a *account) managedServer(ctx context.Context, id, verb string) (*hcloud.Server, error) {
	s, err := a.server(ctx, id)
	if err != nil {
		return nil, err
	}
	if managed, _ := markOf(s); !managed {
		n := strconv.FormatInt(s.ID, 10)
		return nil, labelMarks.Refuse(verb, describe(s), n)
	}
	return s, nil
}

// Delete removes a managed server and returns once the API accepted it.
func (a *account) Delete(ctx context.Context, id string) error {
	s, err := a.managedServer(ctx, id, "delete")
	if err != nil {
		return err
	}
	if s.Status == hcloud.ServerStatusDeleting {
		return nil
	}
	_, _, err = a.client.Server.DeleteWithResult(ctx, s)
	if hcloud.IsError(err, hcloud.ErrorCodeNotFound) {
		return adapter.Errorf(adapter.NotFound, "%s was deleted meanwhile", describe(s))
	}
	return fail("delete "+describe(s), err)
}

// Power switches a managed server on or off and waits for the API's action
// to finish. Off is poweroff, the immediate cut; the graceful shutdown, which
// depends on the guest honouring ACPI, is its own action (power.go), so the
// caller decides how long to wait for it.
func (a *account) Power(ctx context.Context, id string, action adapter.PowerAction) error {
	if action != adapter.PowerOn && action != adapter.PowerOff {
		return a.powerBeyondSwitch(ctx, id, action)
	}
	verb := action.Verb()
	s, err := a.managedServer(ctx, id, verb)
	if err != nil {
		return err
	}
	what := verb + " " + describe(s)
	if action == adapter.PowerOn || action == adapter.PowerOff {
		if s.Status != hcloud.ServerStatusRunning {
			// A start its create queued is still to come: on, it is all
			// that is needed; off, it must be over first, or it would
			// switch the server on behind the poweroff.
			waited, err := a.awaitStart(ctx, what, s)
			if waited && (err != nil || action == adapter.PowerOn) {
				return err
			}
			if waited {
				if s, err = a.managedServer(ctx, id, verb); err != nil {
					return err
				}
			}
		}
	}
	var act *hcloud.Action
	switch action {
	case adapter.PowerOn:
		if s.Status == hcloud.ServerStatusRunning {
			return nil
		}
		act, _, err = a.client.Server.Poweron(ctx, s)
	case adapter.PowerOff:
		if s.Status == hcloud.ServerStatusOff {
			return nil
		}
		act, _, err = a.client.Server.Poweroff(ctx, s)
	default:
		return adapter.Errorf(adapter.InvalidInput, "power action %q is not known; use %q or %q", action, adapter.PowerOn, adapter.PowerOff).WithField("power")
	}
	if err != nil {
		err = fail(what, err)
		if !adapter.NoAnswer(err) || !a.reachedAfterSilence(ctx, what, s.ID, action) {
			return err
		}
	} else if err := a.waitAction(ctx, what, act); err != nil {
		return err
	}
	if action == adapter.PowerOff {
		// Stopped here: no start is queued behind it.
		a.starts.done(s.ID)
	}
	return nil
}

// powerState is the status a switch leaves a server in (settled), and the
// one it shows on the way there (passing).
type powerState struct{ settled, passing hcloud.ServerStatus }

var powerStates = map[adapter.PowerAction]powerState{
	adapter.PowerOn:  {settled: hcloud.ServerStatusRunning, passing: hcloud.ServerStatusStarting},
	adapter.PowerOff: {settled: hcloud.ServerStatusOff, passing: hcloud.ServerStatusStopping},
}

// reachedAfterSilence reads server id after its power request went
// unanswered within the request bound: the API may have taken it and the
// answer alone be lost. It reports whether the server is in the state the
// action asks for, waiting while it shows the way there. Any other status,
// a server gone, or a wait that fails is no proof: the unanswered request
// stays the error, and is not sent again here.
//
// It cannot share waitAction's wait: that one follows the action the
// answer named, and an unanswered request named none, so only the server's
// own status can tell whether the switch took place.
func (a *account) reachedAfterSilence(ctx context.Context, what string, id int64, action adapter.PowerAction) bool {
	want := powerStates[action]
	reached := false
	err := adapter.WaitFor(ctx, a.clock, a.poll, what+": read the server after the unanswered request", func(ctx context.Context) (bool, error) {
		s, _, err := a.client.Server.GetByID(ctx, id)
		switch {
		case err != nil:
			// Retried as every wait's read is; one unanswered again
			// is not, and ends the wait.
			return false, fail(what+": read the server", err)
		case s == nil:
			return true, nil
		}
		adapter.ReportState(ctx, string(s.Status))
		reached = s.Status == want.settled
		return s.Status != want.passing, nil
	})
	return err == nil && reached
}

// waitAction polls an action on the account's clock until it ends. A failed
// action ends the wait at once: polling it again cannot change its outcome.
func (a *account) waitAction(ctx context.Context, what string, act *hcloud.Action) error {
	failed, err := a.awaitAction(ctx, what, act)
	if err != nil {
		return err
	}
	return failed
}

// awaitAction is waitAction telling apart an action that ended in error
// (failed) from a wait that did not see its end (err).
func (a *account) awaitAction(ctx context.Context, what string, act *hcloud.Action) (failed, err error) {
	if act == nil || act.Status == hcloud.ActionStatusSuccess {
		return nil, nil
	}
	if act.Status == hcloud.ActionStatusError {
		return fail(what, act.Error()), nil
	}
	err = adapter.WaitFor(ctx, a.clock, a.poll, what, func(ctx context.Context) (bool, error) {
		cur, _, err := a.client.Action.GetByID(ctx, act.ID)
		switch {
		case err != nil:
			return false, fail(what+": read action "+strconv.FormatInt(act.ID, 10), err)
		case cur == nil:
			return false, adapter.Errorf(adapter.Transient, "%s: action %d is not known to the API yet", what, act.ID)
		case cur.Status == hcloud.ActionStatusError:
			failed = fail(what, cur.Error())
			return true, nil
		}
		return cur.Status == hcloud.ActionStatusSuccess, nil
	})
	return failed, err
}

// Update changes name and labels in one PUT, keeping our marks, and writes
// them when req.Mark asks (the first apply after an import). With
// req.Current it sends the PUT alone; the PUT answers with the server, which
// is what it returns.
func (a *account) Update(ctx context.Context, id string, req adapter.UpdateRequest) (adapter.Machine, error) {
	cur, err := a.current(ctx, id, req.Current)
	if err != nil {
		return adapter.Machine{}, err
	}
	what := "update " + describeMachine(cur)
	mark := cur.Mark()
	switch {
	case req.Mark != nil:
		if !validLabelValue(req.Mark.Key) || !validLabelValue(req.Mark.Fingerprint) || !validLabelValue(req.Mark.Claim) || req.Mark.Key == "" {
			return adapter.Machine{}, adapter.Errorf(adapter.InvalidInput, "%s: the mark's key, fingerprint and claim must be label values, the key non-empty", what)
		}
		mark = req.Mark.Over(mark)
	case !cur.Managed:
		return adapter.Machine{}, labelMarks.Refuse("change", describeMachine(cur), cur.ID)
	}
	user := cur.Labels
	if req.Labels != nil {
		if err := labelMarks.CheckUser(req.Labels); err != nil {
			return adapter.Machine{}, err
		}
		user = req.Labels
	}
	labels := labelMarks.Put(user, mark)
	opts := hcloud.ServerUpdateOpts{}
	if req.Name != nil && *req.Name != cur.Name {
		if *req.Name == "" {
			return adapter.Machine{}, adapter.Errorf(adapter.InvalidInput, "%s: the name must not be empty", what).WithField("name")
		}
		opts.Name = *req.Name
	}
	if !maps.Equal(labels, labelMarks.Stored(cur)) {
		opts.Labels = labels
	}
	if opts.Name == "" && opts.Labels == nil {
		return cur, nil
	}
	n, err := parseID(cur.ID)
	if err != nil {
		return adapter.Machine{}, err
	}
	updated, _, err := a.client.Server.Update(ctx, &hcloud.Server{ID: n}, opts)
	if err != nil {
		return adapter.Machine{}, fail(what, err)
	}
	if updated == nil {
		// Not what the API does; a read is the honest answer then.
		return a.Get(ctx, cur.ID)
	}
	return a.machine(ctx, updated), nil
}

// current is the machine an update starts from: the caller's fresh read, or
// one of its own.
func (a *account) current(ctx context.Context, id string, known *adapter.Machine) (adapter.Machine, error) {
	if known == nil {
		return a.Get(ctx, id)
	}
	if known.ID != id {
		return adapter.Machine{}, adapter.Errorf(adapter.InvalidInput, "the update of server %s was given server %s as its current state; this is a bug in the provider", id, known.ID)
	}
	return *known, nil
}

// List returns every managed server, complete or not at all.
func (a *account) List(ctx context.Context) ([]adapter.Machine, error) {
	servers, err := a.listServers(ctx, labelMarks.Selector(), "list managed servers")
	if err != nil {
		return nil, err
	}
	return a.machines(ctx, servers), nil
}

// labelValue is the API's syntax for label values.
var labelValue = regexp.MustCompile(`^([a-zA-Z0-9]([-_.a-zA-Z0-9]{0,61}[a-zA-Z0-9])?)?$`)

func validLabelValue(v string) bool { return labelValue.MatchString(v) }
