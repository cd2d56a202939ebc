package hcloud_test

import (
	"errors"
	"net/http"
	"testing"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	emulator "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// forbidden asserts the real API's answer to a read-only token's write.
func forbidden(t *testing.T, what string, err error) {
	t.Helper()
	var apiErr hcloud.Error
	if !errors.As(err, &apiErr) || apiErr.Code != hcloud.ErrorCodeForbidden || apiErr.Response().StatusCode != http.StatusForbidden {
		t.Errorf("%s with a read-only token: %v, want 403 forbidden", what, err)
	}
}

func TestReadOnlyTokenReadsButNeverWrites(t *testing.T) {
	e, rw, endpoint := start(t, emulator.Options{ReadOnlyToken: "ro-token"})
	s := create(t, rw, "keep-1", nil)
	ro := newClient(endpoint, "ro-token")

	if got, _, err := ro.Server.GetByID(ctx(t), s.ID); err != nil || got == nil || got.Name != "keep-1" {
		t.Fatalf("read with a read-only token: %v %v", got, err)
	}
	_, _, err := ro.Server.Create(ctx(t), createOpts("new-1", "cx22", "ubuntu-24.04", ""))
	forbidden(t, "create", err)
	_, _, err = ro.Server.Update(ctx(t), s, hcloud.ServerUpdateOpts{Name: "renamed"})
	forbidden(t, "update", err)
	_, _, err = ro.Server.DeleteWithResult(ctx(t), s)
	forbidden(t, "delete", err)
	_, _, err = ro.Server.Poweroff(ctx(t), s)
	forbidden(t, "power off", err)

	if all := e.Servers(); len(all) != 1 || all[0].Name != "keep-1" || all[0].Status != "running" {
		t.Errorf("a read-only token changed the project: %+v", all)
	}
	if _, _, err := rw.Server.Update(ctx(t), s, hcloud.ServerUpdateOpts{Name: "renamed"}); err != nil {
		t.Errorf("the read-write token may still write: %v", err)
	}
}

func TestSetReadOnlyTokenTurnsTheTokenReadOnly(t *testing.T) {
	e, c, _ := start(t, emulator.Options{})
	s := create(t, c, "keep-1", nil)
	e.SetReadOnlyToken(testToken)
	_, _, err := c.Server.Update(ctx(t), s, hcloud.ServerUpdateOpts{Name: "renamed"})
	forbidden(t, "update", err)
	if _, _, err := c.Server.List(ctx(t), hcloud.ServerListOpts{}); err != nil {
		t.Errorf("list with the now read-only token: %v", err)
	}
	e.SetReadOnlyToken("")
	if _, _, err := c.Server.Update(ctx(t), s, hcloud.ServerUpdateOpts{Name: "renamed"}); err != nil {
		t.Errorf("after removing the read-only token: %v", err)
	}
}

func TestWrongTokenIsRefusedBesideAReadOnlyOne(t *testing.T) {
	_, _, endpoint := start(t, emulator.Options{ReadOnlyToken: "ro-token"})
	_, _, err := newClient(endpoint, "ro-token-but-wrong").Server.List(ctx(t), hcloud.ServerListOpts{})
	if !hcloud.IsError(err, hcloud.ErrorCodeUnauthorized) {
		t.Fatalf("err = %v, want unauthorized", err)
	}
}
