package hcloud_test

import (
	"testing"
	"time"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	emulator "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

func TestSeedAndOutOfBandChanges(t *testing.T) {
	e, c, _ := start(t, emulator.Options{})
	created := time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)
	id := e.AddServer(emulator.Server{
		Name: "legacy", ServerType: "cax21", Image: "debian-12", Location: "hel1",
		Labels: map[string]string{"team": "ops"}, Created: created, IPv4: "198.51.100.77",
	})
	srv, _, err := c.Server.GetByID(ctx(t), id)
	if err != nil || srv == nil {
		t.Fatal(err)
	}
	if srv.Status != hcloud.ServerStatusRunning || srv.ServerType.Name != "cax21" || srv.Image.Architecture != hcloud.ArchitectureARM ||
		srv.Location.Name != "hel1" || !srv.Created.Equal(created) || srv.PublicNet.IPv4.IP.String() != "198.51.100.77" {
		t.Errorf("seeded server %+v", srv)
	}

	e.SetServerStatus(id, "off")
	e.SetServerLabels(id, map[string]string{"team": "dev", "extra": ""})
	srv, _, _ = c.Server.GetByID(ctx(t), id)
	if srv.Status != hcloud.ServerStatusOff || srv.Labels["team"] != "dev" || len(srv.Labels) != 2 {
		t.Errorf("after out-of-band changes: %s %v", srv.Status, srv.Labels)
	}

	// Removal outside the API ends the server's running actions.
	a, _, err := c.Server.Poweron(ctx(t), srv)
	if err != nil {
		t.Fatal(err)
	}
	e.RemoveServer(id)
	if got, _, err := c.Server.GetByID(ctx(t), id); got != nil || err != nil {
		t.Errorf("after RemoveServer: %v %v", got, err)
	}
	if err := c.Action.WaitFor(ctx(t), a); err == nil {
		t.Error("an action on a vanished server succeeded")
	}
	if _, ok := e.Server(id); ok || len(e.Servers()) != 0 {
		t.Error("snapshot still lists the removed server")
	}

	// Changes to a snapshot do not leak back.
	id = e.AddServer(emulator.Server{Name: "copy", Labels: map[string]string{"a": "1"}})
	snap, _ := e.Server(id)
	snap.Labels["a"] = "2"
	if again, _ := e.Server(id); again.Labels["a"] != "1" {
		t.Error("snapshot shares its labels with the emulator")
	}

	defer func() {
		if recover() == nil {
			t.Error("AddServer accepted a taken name")
		}
	}()
	e.AddServer(emulator.Server{Name: "copy"})
}

func TestActionDuration(t *testing.T) {
	// Long enough that three polls fit in it on a loaded machine (the
	// emulator runs on the wall clock), short enough for a unit test.
	e, c, _ := start(t, emulator.Options{ActionDuration: 600 * time.Millisecond})
	res, _, err := c.Server.Create(ctx(t), createOpts("timed", "cx22", "ubuntu-24.04", ""))
	if err != nil {
		t.Fatal(err)
	}
	// Polling does not speed a timed action up.
	for range 3 {
		if a, _, _ := c.Action.GetByID(ctx(t), res.Action.ID); a.Status != hcloud.ActionStatusRunning {
			t.Fatalf("action %s before its duration passed", a.Status)
		}
	}
	if err := c.Action.WaitFor(ctx(t), append([]*hcloud.Action{res.Action}, res.NextActions...)...); err != nil {
		t.Fatal(err)
	}
	if s, _ := e.Server(res.Server.ID); s.Status != "running" {
		t.Errorf("status %s after the duration", s.Status)
	}
}
