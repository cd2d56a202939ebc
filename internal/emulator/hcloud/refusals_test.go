package hcloud_test

import (
	"strings"
	"testing"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	emulator "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// TestListingsAndUpdatesRefuseWhatTheAPIRefuses: the refusals the listings
// and the updates of servers and SSH keys share (an unknown status, a
// label the API does not allow) answer invalid_input on the field for
// each of them, before anything is listed or written.
func TestListingsAndUpdatesRefuseWhatTheAPIRefuses(t *testing.T) {
	e, c, _ := start(t, emulator.Options{})
	id := e.AddServer(emulator.Server{Name: "kept", Labels: map[string]string{"team": "ops"}})
	srv := &hcloud.Server{ID: id}
	key, _, err := c.SSHKey.Create(ctx(t), hcloud.SSHKeyCreateOpts{Name: "deploy", PublicKey: "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGJ3mDIsdtWOFgRdA2wK0wsXxJCEMAdD3mEmxoMrhWc0 test@example"})
	if err != nil {
		t.Fatal(err)
	}
	bad := map[string]string{"hetzner.cloud/x": "y"}
	for _, tc := range []struct {
		name, says string
		call       func() error
	}{
		{"servers by an unknown status", "status", func() error {
			_, err := c.Server.AllWithOpts(ctx(t), hcloud.ServerListOpts{Status: []hcloud.ServerStatus{"asleep"}})
			return err
		}},
		{"actions by an unknown status", "status", func() error {
			_, err := c.Server.Action.All(ctx(t), hcloud.ActionListOpts{Status: []hcloud.ActionStatus{"asleep"}})
			return err
		}},
		{"a server updated with a reserved label", "reserved prefix", func() error {
			_, _, err := c.Server.Update(ctx(t), srv, hcloud.ServerUpdateOpts{Labels: bad})
			return err
		}},
		{"an SSH key updated with a reserved label", "reserved prefix", func() error {
			_, _, err := c.SSHKey.Update(ctx(t), key, hcloud.SSHKeyUpdateOpts{Labels: bad})
			return err
		}},
	} {
		err := tc.call()
		if !hcloud.IsError(err, hcloud.ErrorCodeInvalidInput) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v, want invalid_input saying %q", tc.name, err, tc.says)
		}
	}
	if got, _, err := c.Server.GetByID(ctx(t), id); err != nil || got.Labels["team"] != "ops" {
		t.Errorf("the refused update wrote the server: %v, %v", got, err)
	}
}
