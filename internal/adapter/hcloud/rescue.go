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
// ends, through the contract's retry and this adapter's one classify. A
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
	if err := a.armRescue(ctx, step, s, keys); err != nil {
		return adapter.Machine{ID: id}, err
	}
	if err := a.resetIntoRescue(ctx, step, s); err != nil {
		return adapter.Machine{ID: id}, err
	}
	// The boot disarms rescue: running and disarmed is running rescue.
	// The status alone says "running" throughout, so the state reported
	// says whether rescue is still armed.
	armed := true
	err = adapter.WaitFor(ctx, a.clock, a.poll, step+": wait until the server runs its rescue system", func(ctx context.Context) (bool, error) {
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
		return adapter.Machine{ID: id}, stillArmed(err, s)
	}
	if err != nil {
		return adapter.Machine{ID: id}, err
	}
	return a.machine(ctx, s), nil
}

// stillArmed is a failed wait for the boot with the way out appended: a
// server sometimes boots its disk in spite of the reset, and the armed
// rescue then waits for whichever boot comes next.
func stillArmed(err error, s *hcloud.Server) error {
	var e *adapter.Error
	if !errors.As(err, &e) {
		return err
	}
	out := *e
	out.Message += fmt.Sprintf("; rescue is still armed, so the server's next boot takes it: invoke the action again to reset into it, "+
		"or withdraw it with `hcloud server disable-rescue %s`", s.Name)
	if out.Err == nil {
		out.Err = e
	}
	return &out
}

// readServerRetried reads the server, retried; a server without our mark is
// still read, so RefuseUnheld words its refusal.
func (a *account) readServerRetried(ctx context.Context, id string) (s *hcloud.Server, err error) {
	err = adapter.Retry(ctx, a.clock, a.poll, "read server "+id, func(ctx context.Context) (err error) {
		s, err = a.server(ctx, id)
		return err
	})
	return s, err
}

// rescueKeyIDs resolves the rescue_ssh_keys setting, names or ids as the
// hcloud CLI takes them, through the project's key listing.
func (a *account) rescueKeyIDs(ctx context.Context, step string) ([]int64, error) {
	var all []*hcloud.SSHKey
	err := adapter.Retry(ctx, a.clock, a.poll, step+": list the project's SSH keys", func(ctx context.Context) (err error) {
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
			return nil, adapter.Errorf(adapter.InvalidConfig, "%s: the project has no SSH key named %q; available: %s. Add the key to the "+
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
func (a *account) armRescue(ctx context.Context, step string, s *hcloud.Server, keys []int64) error {
	body, err := json.Marshal(schema.ServerActionEnableRescueRequest{Type: hcloud.Ptr(string(hcloud.ServerRescueTypeLinux64)), SSHKeys: keys})
	if err != nil {
		return adapter.Errorf(adapter.InvalidInput, "%s: %v", step, err)
	}
	var act *hcloud.Action
	err = adapter.Retry(ctx, a.clock, a.poll, step+": enable rescue", func(ctx context.Context) error {
		req, err := a.client.NewRequest(ctx, http.MethodPost, fmt.Sprintf("/servers/%d/actions/enable_rescue", s.ID), bytes.NewReader(body))
		if err != nil {
			return fail(step+": enable rescue", err)
		}
		var out struct {
			Action schema.Action `json:"action"`
		}
		if _, err := a.client.Do(req, &out); err != nil {
			return fail(step+": enable rescue", err)
		}
		act = hcloud.ActionFromSchema(out.Action)
		return nil
	})
	if err != nil {
		return err
	}
	return a.waitAction(ctx, step+": enable rescue", act)
}

// resetIntoRescue resets the server and waits for the reset's action. A
// reset the API refused with an answer (503, locked, rate limited) was not
// carried out, so it is sent again as it is. One that got no answer may
// have booted rescue already: rescue_enabled is read first, and the reset
// is sent again only while rescue is still armed.
func (a *account) resetIntoRescue(ctx context.Context, step string, s *hcloud.Server) error {
	var act *hcloud.Action
	var last error
	err := adapter.Retry(ctx, a.clock, a.poll, step+": reset", func(ctx context.Context) error {
		if last != nil && !refusedWithAnswer(last) {
			cur, err := a.server(ctx, strconv.FormatInt(s.ID, 10))
			if err != nil {
				return err
			}
			if !cur.RescueEnabled {
				// A reset whose answer was lost booted rescue already.
				act = nil
				return nil
			}
		}
		var err error
		act, _, err = a.client.Server.Reset(ctx, s)
		last = fail(step+": reset", err)
		return last
	})
	if err != nil {
		return err
	}
	return a.waitAction(ctx, step+": reset", act)
}

// refusedWithAnswer reports whether err is the API's own error answer,
// which it gives only for a request it did not carry out. A lost
// connection, a request's bound that ran out or a proxy's bare status may
// hide a request that took effect.
func refusedWithAnswer(err error) bool {
	var apiErr hcloud.Error
	return errors.As(err, &apiErr)
}
