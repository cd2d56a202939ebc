package robot

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// The webservice calls of the bootstrap: the rescue system (arm, read,
// disarm, the last activation), a reset of a given type, and the public
// half of the account's SSH key. Each is one request; the phases decide
// what to retry.

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

func (a *account) rescueState(ctx context.Context, n int) (rescueInfo, error) {
	var out rescueEnvelope
	err := a.c.get(ctx, "/boot/{n}/rescue", &out, strconv.Itoa(n))
	return out.Rescue, err
}

// lastRescue is the last activation; found is false for a server that
// never had one (NOT_FOUND).
func (a *account) lastRescue(ctx context.Context, n int) (info rescueInfo, found bool, err error) {
	var out rescueEnvelope
	err = a.c.get(ctx, "/boot/{n}/rescue/last", &out, strconv.Itoa(n))
	if isCode(err, "NOT_FOUND", "BOOT_NOT_AVAILABLE") {
		return rescueInfo{}, false, nil
	}
	return out.Rescue, err == nil, err
}

// activateRescue arms the Linux rescue system with the account's key.
// BOOT_ALREADY_ENABLED (an activation of an earlier run) is not an error:
// the armed activation is read back instead.
func (a *account) activateRescue(ctx context.Context, n int) (rescueInfo, error) {
	form := url.Values{"os": {"linux"}, "arch": {"64"}, "authorized_key[]": {a.sshKey}}
	var out rescueEnvelope
	err := a.c.post(ctx, "/boot/{n}/rescue", form, &out, strconv.Itoa(n))
	if isCode(err, "BOOT_ALREADY_ENABLED") {
		return a.rescueState(ctx, n)
	}
	return out.Rescue, err
}

// deactivateRescue disarms rescue, so the next boot starts the disk.
func (a *account) deactivateRescue(ctx context.Context, n int) error {
	return a.c.do(ctx, http.MethodDelete, "/boot/{n}/rescue", []string{strconv.Itoa(n)}, nil, nil)
}

// resetServer sends one reset of kind ("sw", "hw").
func (a *account) resetServer(ctx context.Context, n int, kind string) error {
	return a.c.post(ctx, "/reset/{n}", url.Values{"type": {kind}}, nil, strconv.Itoa(n))
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
	if err := a.c.get(ctx, "/key/{fingerprint}", &out, a.sshKey); err != nil {
		return "", err
	}
	return strings.TrimSpace(out.Key.Data), nil
}
