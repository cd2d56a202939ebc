package hcloud_test

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	emulator "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

func TestServerLifecycleWithHcloudGo(t *testing.T) {
	e, c, _ := start(t, emulator.Options{})

	res, _, err := c.Server.Create(ctx(t), hcloud.ServerCreateOpts{
		Name:       "web-1",
		ServerType: &hcloud.ServerType{Name: "cx22"},
		Image:      &hcloud.Image{Name: "ubuntu-24.04"},
		Location:   &hcloud.Location{Name: "fsn1"},
		UserData:   "#cloud-config\n",
		Labels:     map[string]string{"managed-by": "compute", "key": "k1"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Server.Status != hcloud.ServerStatusInitializing || res.Action.Status != hcloud.ActionStatusRunning {
		t.Errorf("fresh server %s, action %s; want initializing and running", res.Server.Status, res.Action.Status)
	}
	if res.Action.Command != "create_server" || len(res.NextActions) != 1 || res.NextActions[0].Command != "start_server" {
		t.Errorf("actions %s + %v", res.Action.Command, res.NextActions)
	}
	if res.RootPassword == "" {
		t.Error("no root password for a server without SSH keys")
	}
	if err := c.Action.WaitFor(ctx(t), append([]*hcloud.Action{res.Action}, res.NextActions...)...); err != nil {
		t.Fatal(err)
	}

	srv, _, err := c.Server.GetByID(ctx(t), res.Server.ID)
	if err != nil || srv == nil {
		t.Fatalf("GetByID: %v %v", srv, err)
	}
	if srv.Status != hcloud.ServerStatusRunning {
		t.Errorf("status %s after the actions finished, want running", srv.Status)
	}
	if !netip.MustParsePrefix("203.0.113.0/24").Contains(netip.MustParseAddr(srv.PublicNet.IPv4.IP.String())) {
		t.Errorf("IPv4 %s outside the documentation range", srv.PublicNet.IPv4.IP)
	}
	if !strings.HasPrefix(srv.PublicNet.IPv6.Network.String(), "2001:db8:") {
		t.Errorf("IPv6 %s outside 2001:db8::/32", srv.PublicNet.IPv6.Network)
	}
	if srv.ServerType.Name != "cx22" || srv.Location.Name != "fsn1" || srv.Image.Name != "ubuntu-24.04" || srv.Created.IsZero() {
		t.Errorf("server %+v", srv)
	}
	if srv.Labels["managed-by"] != "compute" || srv.PrimaryDiskSize != 40 || srv.Locked {
		t.Errorf("labels %v, disk %d, locked %v", srv.Labels, srv.PrimaryDiskSize, srv.Locked)
	}
	if snap, ok := e.Server(srv.ID); !ok || snap.UserData != "#cloud-config\n" || snap.IPv4 != srv.PublicNet.IPv4.IP.String() {
		t.Errorf("snapshot %+v", snap)
	}

	byName, _, err := c.Server.GetByName(ctx(t), "web-1")
	if err != nil || byName == nil || byName.ID != srv.ID {
		t.Fatalf("GetByName: %v %v", byName, err)
	}
	if missing, _, err := c.Server.GetByName(ctx(t), "web-2"); err != nil || missing != nil {
		t.Errorf("GetByName(web-2) = %v, %v; want nil, nil", missing, err)
	}

	a, _, err := c.Server.Poweroff(ctx(t), srv)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := c.Server.Poweron(ctx(t), srv); !hcloud.IsError(err, hcloud.ErrorCodeLocked) {
		t.Errorf("poweron while poweroff runs: %v, want locked", err)
	}
	if err := c.Action.WaitFor(ctx(t), a); err != nil {
		t.Fatal(err)
	}
	if srv, _, _ = c.Server.GetByID(ctx(t), srv.ID); srv.Status != hcloud.ServerStatusOff {
		t.Errorf("status %s after poweroff", srv.Status)
	}
	a, _, err = c.Server.Poweron(ctx(t), srv)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Action.WaitFor(ctx(t), a); err != nil {
		t.Fatal(err)
	}
	for _, op := range []func() (*hcloud.Action, *hcloud.Response, error){
		func() (*hcloud.Action, *hcloud.Response, error) { return c.Server.Reboot(ctx(t), srv) },
		func() (*hcloud.Action, *hcloud.Response, error) { return c.Server.Reset(ctx(t), srv) },
	} {
		a, _, err := op()
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Action.WaitFor(ctx(t), a); err != nil {
			t.Fatal(err)
		}
	}
	if srv, _, _ = c.Server.GetByID(ctx(t), srv.ID); srv.Status != hcloud.ServerStatusRunning {
		t.Errorf("status %s after poweron, reboot, reset", srv.Status)
	}
	a, _, err = c.Server.Shutdown(ctx(t), srv)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Action.WaitFor(ctx(t), a); err != nil {
		t.Fatal(err)
	}
	if srv, _, _ = c.Server.GetByID(ctx(t), srv.ID); srv.Status != hcloud.ServerStatusOff {
		t.Errorf("status %s after shutdown", srv.Status)
	}

	updated, _, err := c.Server.Update(ctx(t), srv, hcloud.ServerUpdateOpts{Name: "web-one", Labels: map[string]string{"managed-by": "compute"}})
	if err != nil {
		t.Fatal(err)
	}
	if updated.Name != "web-one" || len(updated.Labels) != 1 {
		t.Errorf("updated %s %v", updated.Name, updated.Labels)
	}

	del, _, err := c.Server.DeleteWithResult(ctx(t), srv)
	if err != nil {
		t.Fatal(err)
	}
	if snap, _ := e.Server(srv.ID); snap.Status != "deleting" {
		t.Errorf("status %s while the delete runs", snap.Status)
	}
	if err := c.Action.WaitFor(ctx(t), del.Action); err != nil {
		t.Fatal(err)
	}
	if gone, _, err := c.Server.GetByID(ctx(t), srv.ID); err != nil || gone != nil {
		t.Errorf("GetByID after delete = %v, %v; want nil, nil", gone, err)
	}
	if len(e.Servers()) != 0 {
		t.Errorf("servers left: %v", e.Servers())
	}
}

func TestDeletingServerAnswersUntilItsActionFinishes(t *testing.T) {
	e, c, _ := start(t, emulator.Options{ActionPolls: 3})
	srv := create(t, c, "slow", nil)
	del, _, err := c.Server.DeleteWithResult(ctx(t), srv)
	if err != nil {
		t.Fatal(err)
	}
	for i := 1; i < 3; i++ {
		got, _, err := c.Server.GetByID(ctx(t), srv.ID)
		if err != nil || got == nil || got.Status != hcloud.ServerStatusDeleting {
			t.Fatalf("read %d: %v %v; want the server, deleting", i, got, err)
		}
	}
	// A second delete returns the action already running.
	again, _, err := c.Server.DeleteWithResult(ctx(t), srv)
	if err != nil || again.Action.ID != del.Action.ID {
		t.Errorf("second delete: %v %v", again, err)
	}
	if got, _, err := c.Server.GetByID(ctx(t), srv.ID); err != nil || got != nil {
		t.Errorf("third read: %v %v; want gone", got, err)
	}
	if a, _, err := c.Action.GetByID(ctx(t), del.Action.ID); err != nil || a.Status != hcloud.ActionStatusSuccess || a.Progress != 100 {
		t.Errorf("delete action %+v %v", a, err)
	}
	if _, ok := e.Server(srv.ID); ok {
		t.Error("snapshot still has the server")
	}
}

func TestActionsPollCountAndServerActionRoutes(t *testing.T) {
	_, c, _ := start(t, emulator.Options{ActionPolls: 2})
	res, _, err := c.Server.Create(ctx(t), hcloud.ServerCreateOpts{
		Name: "polled", ServerType: &hcloud.ServerType{Name: "cax11"}, Image: &hcloud.Image{Name: "debian-12"},
		StartAfterCreate: hcloud.Ptr(false),
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.NextActions) != 0 {
		t.Errorf("next actions %v without start_after_create", res.NextActions)
	}
	if res.Server.Image.Architecture != hcloud.ArchitectureARM {
		t.Errorf("image %s for an arm type", res.Server.Image.Architecture)
	}
	a, _, err := c.Server.Action.GetByID(ctx(t), res.Action.ID)
	if err != nil || a == nil || a.Status != hcloud.ActionStatusRunning || a.Progress != 50 {
		t.Fatalf("first poll: %+v %v", a, err)
	}
	a, _, err = c.Action.GetByID(ctx(t), res.Action.ID)
	if err != nil || a == nil || a.Status != hcloud.ActionStatusSuccess || a.Finished.IsZero() {
		t.Fatalf("second poll: %+v %v", a, err)
	}
	if a.Resources[0].ID != res.Server.ID || a.Resources[0].Type != hcloud.ActionResourceTypeServer {
		t.Errorf("resources %+v", a.Resources[0])
	}
	all, err := c.Server.Action.AllFor(ctx(t), res.Server, hcloud.ActionListOpts{})
	if err != nil || len(all) != 1 {
		t.Errorf("AllFor: %v %v", all, err)
	}
	listed, err := c.Server.Action.All(ctx(t), hcloud.ActionListOpts{ID: []int64{res.Action.ID}})
	if err != nil || len(listed) != 1 || listed[0].Status != hcloud.ActionStatusSuccess {
		t.Errorf("Server.Action.All: %v %v", listed, err)
	}
	srv, _, _ := c.Server.GetByID(ctx(t), res.Server.ID)
	if srv.Status != hcloud.ServerStatusOff {
		t.Errorf("status %s of a server created without start", srv.Status)
	}
	if got, _, err := c.Action.GetByID(ctx(t), 1); err != nil || got != nil {
		t.Errorf("unknown action: %v %v", got, err)
	}
}

func TestWaitingOnlyForNextActionsFinishes(t *testing.T) {
	_, c, _ := start(t, emulator.Options{ActionPolls: 2})
	res, _, err := c.Server.Create(ctx(t), hcloud.ServerCreateOpts{
		Name: "next-only", ServerType: &hcloud.ServerType{Name: "cx22"}, Image: &hcloud.Image{Name: "ubuntu-24.04"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Action.WaitFor(ctx(t), res.NextActions...); err != nil {
		t.Fatal(err)
	}
	if srv, _, _ := c.Server.GetByID(ctx(t), res.Server.ID); srv.Status != hcloud.ServerStatusRunning {
		t.Errorf("status %s", srv.Status)
	}
}

func TestFailedActionReportsError(t *testing.T) {
	e, c, _ := start(t, emulator.Options{})
	e.FailNextAction("create_server", 1, "", "")
	res, _, err := c.Server.Create(ctx(t), hcloud.ServerCreateOpts{
		Name: "doomed", ServerType: &hcloud.ServerType{Name: "cx22"}, Image: &hcloud.Image{Name: "ubuntu-24.04"},
	})
	if err != nil {
		t.Fatal(err)
	}
	err = c.Action.WaitFor(ctx(t), res.Action)
	var actionErr hcloud.ActionError
	if !asActionError(err, &actionErr) || actionErr.Code != "action_failed" {
		t.Fatalf("WaitFor = %v, want an action_failed ActionError", err)
	}
	srv, _, _ := c.Server.GetByID(ctx(t), res.Server.ID)
	if srv == nil || srv.Status != hcloud.ServerStatusOff {
		t.Errorf("server after a failed create: %+v", srv)
	}
}

func TestImmediateActions(t *testing.T) {
	_, c, _ := start(t, emulator.Options{ActionPolls: -1})
	res, _, err := c.Server.Create(ctx(t), hcloud.ServerCreateOpts{
		Name: "instant", ServerType: &hcloud.ServerType{Name: "cx22"}, Image: &hcloud.Image{Name: "ubuntu-24.04"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Action.Status != hcloud.ActionStatusSuccess || res.Server.Status != hcloud.ServerStatusRunning {
		t.Errorf("action %s, server %s; want both done at once", res.Action.Status, res.Server.Status)
	}
}

// TestOffBeforeStart: with OffBeforeStart a create that starts its server
// shows the server off, its start_server still running, between the two
// actions; the start then runs its own polls and leaves the server running.
func TestOffBeforeStart(t *testing.T) {
	_, c, _ := start(t, emulator.Options{OffBeforeStart: true, ActionPolls: 2})
	res, _, err := c.Server.Create(ctx(t), hcloud.ServerCreateOpts{
		Name: "queued", ServerType: &hcloud.ServerType{Name: "cx22"}, Image: &hcloud.Image{Name: "ubuntu-24.04"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.NextActions) != 1 || res.NextActions[0].Command != "start_server" || res.NextActions[0].Status != hcloud.ActionStatusRunning {
		t.Fatalf("next actions %+v, want one running start_server", res.NextActions)
	}
	status := func() hcloud.ServerStatus {
		t.Helper()
		srv, _, err := c.Server.GetByID(ctx(t), res.Server.ID)
		if err != nil || srv == nil {
			t.Fatalf("read server: %v %v", srv, err)
		}
		return srv.Status
	}
	// Two reads finish create_server; start_server begins only then.
	if got := status(); got != hcloud.ServerStatusInitializing {
		t.Errorf("status %s during create_server, want initializing", got)
	}
	if got := status(); got != hcloud.ServerStatusOff {
		t.Errorf("status %s between create_server and start_server, want off", got)
	}
	acts, _, err := c.Action.List(ctx(t), hcloud.ActionListOpts{ID: []int64{res.Action.ID, res.NextActions[0].ID}})
	if err != nil || len(acts) != 2 {
		t.Fatalf("actions %v %v", acts, err)
	}
	for _, a := range acts {
		if want := map[string]hcloud.ActionStatus{"create_server": hcloud.ActionStatusSuccess, "start_server": hcloud.ActionStatusRunning}[a.Command]; a.Status != want {
			t.Errorf("%s is %s in the window, want %s", a.Command, a.Status, want)
		}
	}
	if got := status(); got != hcloud.ServerStatusRunning {
		t.Errorf("status %s after start_server's own two polls, want running", got)
	}
}
