package hcloud_test

import (
	"testing"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	emulator "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// TestRescueBootsOnceOnReset: enable_rescue answers a root password and
// arms rescue (rescue_enabled), a reset boots the rescue system and
// disarms it, and the reset after that boots the disk again.
func TestRescueBootsOnceOnReset(t *testing.T) {
	e, c, _ := start(t, emulator.Options{ActionPolls: 2})
	key, _, err := c.SSHKey.Create(ctx(t), hcloud.SSHKeyCreateOpts{Name: "ops", PublicKey: emulator.ExamplePublicKey})
	if err != nil {
		t.Fatal(err)
	}
	s := &hcloud.Server{ID: e.AddServer(emulator.Server{Name: "guest"})}
	wait := func(what string, a *hcloud.Action, err error) {
		t.Helper()
		if err == nil {
			err = c.Action.WaitFor(ctx(t), a)
		}
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	state := func() (bool, bool) {
		t.Helper()
		got, _, err := c.Server.GetByID(ctx(t), s.ID)
		if err != nil {
			t.Fatal(err)
		}
		return got.RescueEnabled, e.InRescue(s.ID)
	}

	res, _, err := c.Server.EnableRescue(ctx(t), s, hcloud.ServerEnableRescueOpts{Type: hcloud.ServerRescueTypeLinux64, SSHKeys: []*hcloud.SSHKey{key}})
	if err == nil && res.RootPassword == "" {
		t.Error("enable_rescue answered no root_password")
	}
	wait("enable_rescue", res.Action, err)
	if armed, in := state(); !armed || in {
		t.Errorf("after enable_rescue: rescue_enabled %t, in rescue %t; want armed and not yet booted", armed, in)
	}
	a, _, err := c.Server.Reset(ctx(t), s)
	wait("reset", a, err)
	if armed, in := state(); armed || !in {
		t.Errorf("after a reset with rescue armed: rescue_enabled %t, in rescue %t; want the boot to take it", armed, in)
	}
	a, _, err = c.Server.Reset(ctx(t), s)
	wait("second reset", a, err)
	if armed, in := state(); armed || in {
		t.Errorf("after a second reset: rescue_enabled %t, in rescue %t; want the disk booted", armed, in)
	}

	// disable_rescue disarms without a boot.
	res, _, err = c.Server.EnableRescue(ctx(t), s, hcloud.ServerEnableRescueOpts{Type: hcloud.ServerRescueTypeLinux64})
	wait("enable_rescue", res.Action, err)
	a, _, err = c.Server.DisableRescue(ctx(t), s)
	wait("disable_rescue", a, err)
	if armed, in := state(); armed || in {
		t.Errorf("after disable_rescue: rescue_enabled %t, in rescue %t; want neither", armed, in)
	}

	// Power-off leaves the rescue system and keeps an armed rescue; the
	// power-on boots it.
	res, _, err = c.Server.EnableRescue(ctx(t), s, hcloud.ServerEnableRescueOpts{Type: hcloud.ServerRescueTypeLinux64})
	wait("enable_rescue", res.Action, err)
	a, _, err = c.Server.Reset(ctx(t), s)
	wait("reset", a, err)
	res, _, err = c.Server.EnableRescue(ctx(t), s, hcloud.ServerEnableRescueOpts{Type: hcloud.ServerRescueTypeLinux64})
	wait("enable_rescue in rescue", res.Action, err)
	a, _, err = c.Server.Poweroff(ctx(t), s)
	wait("poweroff", a, err)
	if armed, in := state(); !armed || in {
		t.Errorf("after poweroff: rescue_enabled %t, in rescue %t; want armed and the rescue system left", armed, in)
	}
	a, _, err = c.Server.Poweron(ctx(t), s)
	wait("poweron", a, err)
	if armed, in := state(); armed || !in {
		t.Errorf("after poweron with rescue armed: rescue_enabled %t, in rescue %t; want the boot to take it", armed, in)
	}

	// An unknown key is refused and arms nothing.
	_, _, err = c.Server.EnableRescue(ctx(t), s, hcloud.ServerEnableRescueOpts{SSHKeys: []*hcloud.SSHKey{{ID: key.ID + 1000}}})
	if !hcloud.IsError(err, hcloud.ErrorCodeInvalidInput) {
		t.Errorf("enable_rescue with an unknown key: %v, want invalid_input", err)
	}
	if armed, _ := state(); armed {
		t.Error("a refused enable_rescue armed rescue")
	}
}

// TestRescueBootReadsAndKeys: with BootReads, the guest boots after that
// many reads of the server, counted in a listing only where the listing
// returns it; the keys of an arming whose action failed are not the
// server's.
func TestRescueBootReadsAndKeys(t *testing.T) {
	e, c, _ := start(t, emulator.Options{ActionPolls: 0, BootReads: 2})
	key, _, err := c.SSHKey.Create(ctx(t), hcloud.SSHKeyCreateOpts{Name: "ops", PublicKey: emulator.ExamplePublicKey})
	if err != nil {
		t.Fatal(err)
	}
	s := &hcloud.Server{ID: e.AddServer(emulator.Server{Name: "guest"})}
	e.AddServer(emulator.Server{Name: "other"})
	wait := func(what string, a *hcloud.Action, err error) error {
		t.Helper()
		if err == nil {
			err = c.Action.WaitFor(ctx(t), a)
		}
		return err
	}
	e.FailNextAction("enable_rescue", 1, "action_failed", "rescue could not be enabled")
	res, _, err := c.Server.EnableRescue(ctx(t), s, hcloud.ServerEnableRescueOpts{Type: hcloud.ServerRescueTypeLinux64, SSHKeys: []*hcloud.SSHKey{key}})
	if err = wait("failed enable_rescue", res.Action, err); err == nil {
		t.Fatal("the failed enable_rescue succeeded")
	}
	if got := e.RescueKeys(s.ID); len(got) != 0 {
		t.Errorf("after a failed arming the server's rescue keys are %v, want none", got)
	}
	res, _, err = c.Server.EnableRescue(ctx(t), s, hcloud.ServerEnableRescueOpts{Type: hcloud.ServerRescueTypeLinux64, SSHKeys: []*hcloud.SSHKey{key}})
	if err := wait("enable_rescue", res.Action, err); err != nil {
		t.Fatal(err)
	}
	if got := e.RescueKeys(s.ID); len(got) != 1 || got[0] != key.ID {
		t.Errorf("rescue keys %v, want [%d]", got, key.ID)
	}
	a, _, err := c.Server.Reset(ctx(t), s)
	if err := wait("reset", a, err); err != nil {
		t.Fatal(err)
	}
	list := func(name string) {
		t.Helper()
		if _, err := c.Server.AllWithOpts(ctx(t), hcloud.ServerListOpts{Name: name}); err != nil {
			t.Fatal(err)
		}
	}
	list("other")
	list("other")
	if e.InRescue(s.ID) {
		t.Error("listings that left the server out booted it")
	}
	list("guest")
	if e.InRescue(s.ID) {
		t.Error("the guest booted after one read of two")
	}
	list("")
	if !e.InRescue(s.ID) {
		t.Error("the guest did not boot after two listings that returned it")
	}
}
