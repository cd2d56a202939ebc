package robot

import (
	"context"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// key is an SSH key as GET /key lists it.
type key struct {
	Name        string `json:"name"`
	Fingerprint string `json:"fingerprint"`
	Type        string `json:"type"`
}

type keyEnvelope struct {
	Key key `json:"key"`
}

// Check reads the account's SSH keys: one cheap authenticated GET that
// proves the endpoint, the user and the password, and, when the account
// names an ssh_key, that Robot knows it (rescue activation and orders
// refuse an unknown fingerprint, half-way through an apply).
func (a *account) Check(ctx context.Context) error {
	var out []keyEnvelope
	err := a.c.Get(ctx, "/key", &out)
	if isCode(err, "NOT_FOUND") {
		// Robot answers an account without keys so, and a URL it has no
		// route for the same way: the server listing, which answers a list
		// or SERVER_NOT_FOUND, tells the webservice from a wrong endpoint.
		out, err = nil, a.c.Get(ctx, "/server", &[]serverEnvelope{})
		if isCode(err, "SERVER_NOT_FOUND") {
			err = nil
		}
	}
	if err != nil {
		return failListing("check the Robot account", err)
	}
	if a.sshKey == "" {
		return nil
	}
	known := make([]string, 0, len(out))
	for _, k := range out {
		if k.Key.Fingerprint == a.sshKey {
			return nil
		}
		known = append(known, k.Key.Fingerprint)
	}
	list := "none"
	if len(known) > 0 {
		list = strings.Join(known, ", ")
	}
	return adapter.Errorf(adapter.InvalidConfig,
		"ssh_key %s is not among the account's SSH keys in Robot (known: %s); add the public key under Key management in Robot, or set ssh_key to a listed fingerprint",
		a.sshKey, list).WithField(settingSSHKey)
}
