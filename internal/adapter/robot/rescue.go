package robot

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/rest"
)

// The webservice calls of the bootstrap: the rescue system (arm, read,
// disarm, the last activation), a reset of a given type, and the public
// half of the account's SSH key, each retried (see retried).

// rescueInfo is GET/POST /boot/{n}/rescue and GET …/rescue/last. The
// password is not kept: the bootstrap logs in with the account's key, and
// a field that is never read cannot reach a log or an error.
type rescueInfo struct {
	Active  bool          `json:"active"`
	HostKey []hostKeyWrap `json:"host_key"`
}

type hostKeyWrap struct {
	Key struct {
		Fingerprint string `json:"fingerprint"`
		Type        string `json:"type"`
		Size        int    `json:"size"`
	} `json:"key"`
}

type rescueEnvelope struct {
	Rescue rescueInfo `json:"rescue"`
}

// pin is the rescue host key Robot announced, as Progress.RescueHostKey
// stores it: "TYPE FINGERPRINT". ED25519 is preferred, as the SSH client
// asks for the pinned type alone and every OpenSSH offers it; "" when Robot
// announced none.
func (r rescueInfo) pin() string {
	best := ""
	for _, k := range r.HostKey {
		if k.Key.Type == "" || k.Key.Fingerprint == "" {
			continue
		}
		p := strings.ToUpper(k.Key.Type) + " " + k.Key.Fingerprint
		if strings.EqualFold(k.Key.Type, "ED25519") {
			return p
		}
		if best == "" {
			best = p
		}
	}
	return best
}

// The bootstrap's webservice calls run inside one long Bootstrap call that
// nothing above retries, so each is retried here, as the contract's Retry
// decides (Transient and RateLimited, with Robot's retry-after; never an
// unanswered request), until the phase's context ends. Each is safe to
// send again: a rescue already armed is read back, a second reset only
// restarts a machine that is being restarted.
// A refusal that is not retried comes back as the client returned it, so
// callers still tell Robot's own codes apart (BOOT_ALREADY_ENABLED).
func (a *account) retried(ctx context.Context, what string, fn func(context.Context) error) error {
	var raw error
	err := adapter.Retry(ctx, a.clock, adapter.DefaultBackoff, what, func(ctx context.Context) error {
		raw = fn(ctx)
		if raw == nil {
			return nil
		}
		return classify(raw)
	})
	if err != nil && raw != nil {
		if retry, _ := adapter.RetryDecision(classify(raw), 1, adapter.DefaultBackoff); !retry {
			return raw
		}
	}
	return err
}

func (a *account) rescueState(ctx context.Context, n int) (rescueInfo, error) {
	var out rescueEnvelope
	err := a.retried(ctx, "read the rescue system of server "+strconv.Itoa(n), func(ctx context.Context) error {
		out = rescueEnvelope{}
		return a.c.Get(ctx, "/boot/{n}/rescue", &out, strconv.Itoa(n))
	})
	return out.Rescue, err
}

// lastRescue is the last activation; found is false for a server that
// never had one (NOT_FOUND).
func (a *account) lastRescue(ctx context.Context, n int) (info rescueInfo, found bool, err error) {
	var out rescueEnvelope
	err = a.retried(ctx, "read the last rescue activation of server "+strconv.Itoa(n), func(ctx context.Context) error {
		out = rescueEnvelope{}
		return a.c.Get(ctx, "/boot/{n}/rescue/last", &out, strconv.Itoa(n))
	})
	if isCode(err, "NOT_FOUND", "BOOT_NOT_AVAILABLE") {
		return rescueInfo{}, false, nil
	}
	return out.Rescue, err == nil, err
}

// activateRescue arms the Linux rescue system with the account's key.
// BOOT_ALREADY_ENABLED after an activation of an earlier run is not an
// error: the armed activation is read back instead. Robot answers the same
// when another boot configuration holds the server (one at a time, says
// GET /boot/{n}): that one is named, with the way out, since a reset would
// boot it (a Linux installation wipes the disks) rather than rescue.
func (a *account) activateRescue(ctx context.Context, n int) (rescueInfo, error) {
	form := url.Values{"os": {"linux"}, "arch": {"64"}, "authorized_key[]": {a.sshKey}}
	var out rescueEnvelope
	err := a.retried(ctx, "activate the rescue system of server "+strconv.Itoa(n), func(ctx context.Context) error {
		out = rescueEnvelope{}
		return a.c.Post(ctx, "/boot/{n}/rescue", form, &out, strconv.Itoa(n))
	})
	if !isCode(err, "BOOT_ALREADY_ENABLED") {
		return out.Rescue, err
	}
	cur, err := a.rescueState(ctx, n)
	if err != nil || cur.Active {
		return cur, err
	}
	return rescueInfo{}, a.otherBoot(ctx, n)
}

// bootNames are the boot configurations besides rescue, as GET /boot/{n}
// keys them, with what Robot's panel calls them.
var bootNames = []struct{ key, name string }{
	{"linux", "a Linux installation"}, {"vnc", "a VNC installation"}, {"windows", "a Windows installation"},
}

// otherBoot is the error for a server whose boot configuration other than
// rescue is active: InvalidState, naming it and how to withdraw it.
func (a *account) otherBoot(ctx context.Context, n int) error {
	var out struct {
		Boot map[string]json.RawMessage `json:"boot"`
	}
	err := a.retried(ctx, "read the boot configuration of server "+strconv.Itoa(n), func(ctx context.Context) error {
		return a.c.Get(ctx, "/boot/{n}", &out, strconv.Itoa(n))
	})
	if err != nil {
		return fail("read the boot configuration of server "+strconv.Itoa(n), err)
	}
	active := "another boot configuration"
	for _, b := range bootNames {
		var cfg struct {
			Active bool `json:"active"`
		}
		if json.Unmarshal(out.Boot[b.key], &cfg) == nil && cfg.Active {
			active = fmt.Sprintf("%s (DELETE /boot/%d/%s)", b.name, n, b.key)
			break
		}
	}
	return adapter.Errorf(adapter.InvalidState,
		"server %d has %s active, and Robot arms one boot configuration at a time, so its rescue system cannot be armed; "+
			"deactivate it in Robot (the server's Boot tab), then apply again", n, active)
}

// deactivateRescue disarms rescue, so the next boot starts the disk.
func (a *account) deactivateRescue(ctx context.Context, n int) error {
	return a.retried(ctx, "deactivate the rescue system of server "+strconv.Itoa(n), func(ctx context.Context) error {
		return a.c.Do(ctx, rest.Call{Method: http.MethodDelete, Route: "/boot/{n}/rescue", Args: []string{strconv.Itoa(n)}}, nil)
	})
}

// resetServer sends one reset of kind ("sw", "hw").
func (a *account) resetServer(ctx context.Context, n int, kind string) error {
	return a.retried(ctx, "reset ("+kind+") server "+strconv.Itoa(n), func(ctx context.Context) error {
		return a.c.Post(ctx, "/reset/{n}", url.Values{"type": {kind}}, nil, strconv.Itoa(n))
	})
}

// resetArmed resets server n with a hardware reset so its armed rescue
// system boots. The boot spends the activation, as Robot's does, so a
// reset sent again after that boot began starts the disk instead, and the
// rescue system never answers. A reset whose answer was lost may have been
// done; so before sending it again the activation is read, and one that is
// gone means the earlier reset was done and its boot is under way. That
// boot may still spend the activation between the read and the second
// reset; the wait for rescue meets the boot of the disk that follows (see
// missWatch).
//
// An activation that still stands is taken as a reset not done, and the
// reset is sent again, although the lost one may have been done and its
// boot not yet begun (Robot keeps the activation until the machine boots
// it). At worst the machine boots rescue twice, and a reset in the middle
// of a rescue boot writes nothing to the disks; waiting a grace for the
// first instead would cost minutes every time the reset really was lost.
func (a *account) resetArmed(ctx context.Context, n int) error {
	num := strconv.Itoa(n)
	sent := false
	return a.retried(ctx, "reset (hw) server "+num+" into rescue", func(ctx context.Context) error {
		if sent {
			var cur rescueEnvelope
			if err := a.c.Get(ctx, "/boot/{n}/rescue", &cur, num); err != nil {
				return err
			}
			if !cur.Rescue.Active {
				return nil
			}
		}
		sent = true
		return a.c.Post(ctx, "/reset/{n}", url.Values{"type": {"hw"}}, nil, num)
	})
}

// publicKey is the account's public SSH key (the ssh_key setting names it
// by fingerprint) in authorized_keys form, what the installed system admits
// for root. It is public: Robot lists it under /key.
func (a *account) publicKey(ctx context.Context) (string, error) {
	var out struct {
		Key struct {
			Data string `json:"data"`
		} `json:"key"`
	}
	if err := a.retried(ctx, "read the account's SSH key", func(ctx context.Context) error {
		return a.c.Get(ctx, "/key/{fingerprint}", &out, a.sshKey)
	}); err != nil {
		return "", err
	}
	return strings.TrimSpace(out.Key.Data), nil
}
