package hcloud

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"
	"github.com/hetznercloud/hcloud-go/v2/hcloud/schema"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// A boot into rescue for an operator (adapter.Rescuer) is the API's own:
// enable_rescue arms the rescue system with the project SSH keys the
// account names (settingRescueKeys), a reset boots it, and the boot disarms
// it, which is how the wait knows the server runs it (the API has no
// status for rescue: "automatically disabled when you first boot into
// it"). The root password enable_rescue answers is dropped unread; the
// operator logs in with a project key.
//
// The caller runs Rescue once, so each step retries on its own until ctx
// ends, through the contract's retry and this adapter's one classify
// (retried). A
// reset the API refused is sent again; one whose answer was lost is sent
// again only while rescue is still armed: once it took the rescue system,
// a second one would boot the disk.

// settingRescueKeys names the project SSH keys rescue systems accept.
const settingRescueKeys = "rescue_ssh_keys"

func init() {
	capabilities = append(capabilities, adapter.CapRescue)
}

var _ adapter.Rescuer = (*account)(nil)

// Rescue implements adapter.Rescuer.
func (a *account) Rescue(ctx context.Context, id, claim string) (adapter.Machine, error) {
	const what = "boot into rescue"
	// Refused before anything is read, as the plan refuses it.
	if err := a.def.Lacks(adapter.CapRescue, what, a.settings); err != nil {
		return adapter.Machine{}, err
	}
	s, err := a.readServerRetried(ctx, id)
	if err != nil {
		return adapter.Machine{}, err
	}
	if err := adapter.RefuseUnheld(what, toMachine(s), claim); err != nil {
		return adapter.Machine{}, err
	}
	step := what + " " + describe(s)
	if s.Status != hcloud.ServerStatusRunning {
		// A reset would start a server that is off: rescue boots a
		// running machine only, as the action asks.
		return adapter.Machine{}, adapter.Errorf(adapter.InvalidState, "%s: the server is %s; power it on first", step, s.Status)
	}
	keys, err := a.rescueKeyIDs(ctx, step)
	if err != nil {
		return adapter.Machine{}, err
	}
	// An interrupted boot into rescue may have left its actions running
	// (rescueresume.go): they are waited for, and not done again.
	was, err := a.resumeRunning(ctx, step, s)
	if err != nil {
		return adapter.Machine{ID: id}, err
	}
	if !was.armed {
		if maybe, err := a.armRescue(ctx, step, s, keys); err != nil {
			if maybe {
				err = a.armedFailure(err, s, false, false)
			}
			return adapter.Machine{ID: id}, err
		}
	}
	if !was.booting {
		if unanswered, err := a.resetIntoRescue(ctx, step, s); err != nil {
			return adapter.Machine{ID: id}, a.armedFailure(err, s, true, unanswered)
		}
	}
	return a.waitRescueBooted(ctx, step, id, s)
}

// waitRescueBooted waits until server id (s as last read) runs its rescue
// system. The boot
// disarms rescue: running and disarmed is running rescue. The status alone
// says "running" throughout, so the state reported says whether rescue is
// still armed.
func (a *account) waitRescueBooted(ctx context.Context, step, id string, s *hcloud.Server) (adapter.Machine, error) {
	armed := true
	err := adapter.WaitFor(ctx, a.clock, a.poll, step+": wait until the server runs its rescue system", func(ctx context.Context) (bool, error) {
		cur, err := a.server(ctx, id)
		if err != nil {
			return false, err
		}
		s, armed = cur, cur.RescueEnabled
		state := string(cur.Status)
		if armed {
			state += ", rescue still armed"
		}
		adapter.ReportState(ctx, state)
		return cur.Status == hcloud.ServerStatusRunning && !armed, nil
	})
	if err != nil && armed {
		// A server sometimes boots its disk in spite of the reset, and
		// the armed rescue then waits for whichever boot comes next.
		return adapter.Machine{ID: id}, a.armedFailure(err, s, true, false)
	}
	if err != nil {
		return adapter.Machine{ID: id}, err
	}
	return a.machine(ctx, s), nil
}

// retried sends one request of the boot into rescue, fn, which classifies
// its own failure, again until it succeeds, fails for good or ctx ends, on
// adapter.DefaultBackoff, as a request of any other operation is retried;
// a.poll paces the waits for actions and for the boot only.
func (a *account) retried(ctx context.Context, what string, fn func(context.Context) error) error {
	return adapter.Retry(ctx, a.clock, adapter.DefaultBackoff, what, fn)
}

// readServerRetried reads the server, retried; a server without our mark is
// still read, so RefuseUnheld words its refusal.
func (a *account) readServerRetried(ctx context.Context, id string) (s *hcloud.Server, err error) {
	err = a.retried(ctx, "read server "+id, func(ctx context.Context) (err error) {
		s, err = a.server(ctx, id)
		return err
	})
	return s, err
}

// rescueKeyIDs resolves the rescue_ssh_keys setting, names or ids as the
// hcloud CLI takes them, through the project's key listing.
func (a *account) rescueKeyIDs(ctx context.Context, step string) ([]int64, error) {
	var all []*hcloud.SSHKey
	err := a.retried(ctx, step+": list the project's SSH keys", func(ctx context.Context) (err error) {
		all, err = a.projectKeys(ctx, step)
		return err
	})
	if err != nil {
		return nil, err
	}
	return a.matchKeys(step, all)
}

// projectKeys lists the project's SSH keys once.
func (a *account) projectKeys(ctx context.Context, step string) ([]*hcloud.SSHKey, error) {
	all, err := a.client.SSHKey.AllWithOpts(ctx, hcloud.SSHKeyListOpts{ListOpts: hcloud.ListOpts{PerPage: pageSize}})
	return all, failListing(step+": list the project's SSH keys", err)
}

// matchKeys is the id of each key rescue_ssh_keys names, or InvalidConfig
// on the setting naming the first key the project lacks, with the keys it
// has: names and ids hold no secret.
func (a *account) matchKeys(step string, all []*hcloud.SSHKey) ([]int64, error) {
	out := make([]int64, 0, len(a.rescueKeys))
	for _, want := range a.rescueKeys {
		i := slices.IndexFunc(all, func(k *hcloud.SSHKey) bool { return k.Name == want || strconv.FormatInt(k.ID, 10) == want })
		if i < 0 {
			names := make([]string, 0, len(all))
			for _, k := range all {
				names = append(names, k.Name)
			}
			slices.Sort(names)
			have := "none"
			if len(names) > 0 {
				have = strings.Join(names, ", ")
			}
			return nil, adapter.Errorf(adapter.InvalidConfig, "%s: the project has no SSH key named or with id %q; available: %s. Add the key to the "+
				"project with `hcloud ssh-key create`, or correct the account's %s (key names or ids, as `hcloud ssh-key list` shows them)",
				step, want, have, settingRescueKeys).WithField(settingRescueKeys)
		}
		out = append(out, all[i].ID)
	}
	return out, nil
}

// checkRescueKeys proves, once, that the project has every key
// rescue_ssh_keys names, so a misspelt key fails the account's apply and
// not the day rescue is needed. An account without the setting asks
// nothing.
func (a *account) checkRescueKeys(ctx context.Context) error {
	if len(a.rescueKeys) == 0 {
		return nil
	}
	const step = "check rescue_ssh_keys"
	all, err := a.projectKeys(ctx, step)
	if err != nil {
		return err
	}
	_, err = a.matchKeys(step, all)
	return err
}

// armRescue enables rescue and waits for its action. Arming again after a
// lost answer only arms what is armed. The request is sent through the
// client's handler chain (its classify and logging) but its answer is
// decoded without root_password, which hcloud-go's EnableRescue would keep.
// An answer `locked` waits for the server's running actions first, and an
// enable_rescue among them that armed it is not sent again. maybe reports,
// with an error, that rescue may be armed all the same: a request went
// unanswered, or the wait did not see its action end.
func (a *account) armRescue(ctx context.Context, step string, s *hcloud.Server, keys []int64) (maybe bool, err error) {
	body, err := json.Marshal(schema.ServerActionEnableRescueRequest{Type: hcloud.Ptr(string(hcloud.ServerRescueTypeLinux64)), SSHKeys: keys})
	if err != nil {
		return false, adapter.Errorf(adapter.InvalidInput, "%s: %v", step, err)
	}
	what := step + ": enable rescue"
	var act *hcloud.Action
	err = a.retried(ctx, what, func(ctx context.Context) error {
		act = nil
		req, err := a.client.NewRequest(ctx, http.MethodPost, fmt.Sprintf("/servers/%d/actions/enable_rescue", s.ID), bytes.NewReader(body))
		if err != nil {
			return fail(what, err)
		}
		var out struct {
			Action schema.Action `json:"action"`
		}
		_, err = a.client.Do(req, &out)
		switch {
		case err == nil:
			act = hcloud.ActionFromSchema(out.Action)
			return nil
		case isLocked(err):
			if armed, werr := a.armedAfterLocked(ctx, what, s); werr != nil || armed {
				return werr
			}
		case !refusedWithAnswer(err):
			maybe = true
		}
		return fail(what, err)
	})
	if err != nil {
		return maybe || !refusedWithAnswer(err), err
	}
	failed, err := a.awaitAction(ctx, what, act)
	if err != nil {
		return true, err
	}
	return false, failed
}

// armedAfterLocked waits, after an answer `locked` to enable_rescue, for
// the actions running on s, and reports whether an enable_rescue among
// them armed it: one in the list, or, for a server that was not armed, one
// that ended before the list was read (the server now armed).
func (a *account) armedAfterLocked(ctx context.Context, what string, s *hcloud.Server) (bool, error) {
	done, err := a.awaitRunning(ctx, what, s)
	if err != nil || (s.RescueEnabled && !slices.Contains(done, commandEnableRescue)) {
		return false, err
	}
	cur, err := a.readServerRetried(ctx, strconv.FormatInt(s.ID, 10))
	if err != nil {
		return false, err
	}
	return cur.RescueEnabled, nil
}

// resetIntoRescue resets the server and waits for the reset's action. A
// reset the API refused with an answer (503, rate limited) was not carried
// out, so it is sent again as it is; one refused `locked` waits for the
// server's running actions first, and a reset among them boots rescue
// already. Once a reset got no answer, or was refused `locked` by an action
// that ended before the list was read, it may have booted rescue:
// rescue_enabled is read before each further one, which is sent only while
// rescue is still armed. unanswered reports, with an error, that a reset
// got no answer and may still be carried out.
func (a *account) resetIntoRescue(ctx context.Context, step string, s *hcloud.Server) (unanswered bool, err error) {
	what := step + ": reset"
	var act *hcloud.Action
	uncertain := false
	err = a.retried(ctx, what, func(ctx context.Context) error {
		act = nil
		if uncertain {
			cur, err := a.server(ctx, strconv.FormatInt(s.ID, 10))
			if err != nil {
				return err
			}
			if !cur.RescueEnabled {
				// A reset whose answer was lost booted rescue already.
				return nil
			}
		}
		var err error
		act, _, err = a.client.Server.Reset(ctx, s)
		switch {
		case err == nil:
			return nil
		case isLocked(err):
			// The action that locks it may be a reset whose answer was
			// lost: a reset among the running actions boots rescue, and
			// one that ended before they were read has disarmed it.
			done, werr := a.awaitRunning(ctx, what, s)
			if werr != nil || slices.Contains(done, commandReset) {
				return werr
			}
			uncertain = true
		case !refusedWithAnswer(err):
			uncertain, unanswered = true, true
		}
		return fail(what, err)
	})
	if err != nil {
		return unanswered, err
	}
	return false, a.waitAction(ctx, what, act)
}

// refusedWithAnswer reports whether err is the API's own error answer,
// which it gives only for a request it did not carry out. A lost
// connection, a request's bound that ran out or a proxy's bare status may
// hide a request that took effect.
func refusedWithAnswer(err error) bool {
	var apiErr hcloud.Error
	return errors.As(err, &apiErr)
}
