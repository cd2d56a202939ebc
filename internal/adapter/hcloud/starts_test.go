package hcloud

import (
	"strconv"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

const poweron = "POST /servers/{id}/actions/poweron"

// untilOff reads machine id until the server shows off, checking that every
// read on the way reports it pending: initializing, then off between
// create_server and start_server.
func untilOff(t *testing.T, a *account, id string) adapter.Machine {
	t.Helper()
	for range 10 {
		m, err := a.Get(ctxT(t), id)
		if err != nil {
			t.Fatal(err)
		}
		if m.State != adapter.StatePending {
			t.Fatalf("machine %s is %s (raw %s) while its create is still starting it, want pending", id, m.State, m.RawState)
		}
		if m.RawState == "off" {
			return m
		}
	}
	t.Fatalf("machine %s never showed off between its create and its start", id)
	return adapter.Machine{}
}

// TestCreatedServerOffBeforeItsStartIsPending: a create's start is followed
// through the create's next_actions, by id: off between create_server and
// start_server reads as pending, in Get and List alike, and Power(on) waits
// for that start instead of sending a second one.
func TestCreatedServerOffBeforeItsStartIsPending(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{OffBeforeStart: true, ActionPolls: 5})
	a := newTestAccount(t, endpoint)
	m, err := a.Create(ctxT(t), testCall("web-1"), testRequest("web-1"))
	if err != nil {
		t.Fatal(err)
	}
	e.ResetStats()
	untilOff(t, a, m.ID)
	listed, err := a.List(ctxT(t))
	if err != nil || len(listed) != 1 || listed[0].RawState != "off" || listed[0].State != adapter.StatePending {
		t.Fatalf("List in the window = %+v, %v; want the server off and pending", listed, err)
	}
	if err := a.Power(ctxT(t), m.ID, adapter.PowerOn); err != nil {
		t.Fatal(err)
	}
	stats := e.Stats()
	if stats[poweron] != 0 {
		t.Errorf("Power(on) sent %d power-on(s) to a server its create was still starting", stats[poweron])
	}
	if stats["GET /actions"] == 0 || stats["GET /servers/actions"] != 0 {
		t.Errorf("requests %v: the start should be followed by the create's next_actions (GET /actions?id=), not looked for", stats)
	}
	if s, _ := e.Server(mustID(t, m.ID)); s.Status != "running" {
		t.Errorf("status after Power(on) = %s, want running", s.Status)
	}
	if got, err := a.Get(ctxT(t), m.ID); err != nil || got.State != adapter.StateRunning {
		t.Errorf("after the start: %+v, %v; want running", got, err)
	}
}

// TestAdoptedServerOffBeforeItsStartIsPending: a process that did not see
// the create (a rerun after an interrupted apply) adopts the server in the
// window; it learns of the start from the project's running actions, reports
// the server pending, and powers it on no second time.
func TestAdoptedServerOffBeforeItsStartIsPending(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{OffBeforeStart: true, ActionPolls: 6})
	first := newTestAccount(t, endpoint)
	created, err := first.Create(ctxT(t), testCall("web-1"), testRequest("web-1"))
	if err != nil {
		t.Fatal(err)
	}
	untilOff(t, first, created.ID)

	rerun := newTestAccount(t, endpoint)
	call := testCall("web-1")
	call.Claim = adapter.NewClaim()
	e.ResetStats()
	m, err := rerun.Create(ctxT(t), call, testRequest("web-1"))
	if err != nil {
		t.Fatal(err)
	}
	if !m.Adopted || m.ID != created.ID || m.RawState != "off" || m.State != adapter.StatePending {
		t.Fatalf("adopted %+v; want server %s adopted, off and pending", m, created.ID)
	}
	if err := rerun.Power(ctxT(t), m.ID, adapter.PowerOn); err != nil {
		t.Fatal(err)
	}
	if n := e.Stats()[poweron]; n != 0 {
		t.Errorf("the rerun sent %d power-on(s) to a server its create was still starting", n)
	}
	if s, _ := e.Server(mustID(t, m.ID)); s.Status != "running" {
		t.Errorf("status = %s, want running", s.Status)
	}
}

// TestStoppedServerIsAskedAboutOnce: an off server without a start queued is
// stopped; a process that did not create it asks the running actions once,
// and powering it on sends one power-on.
func TestStoppedServerIsAskedAboutOnce(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{OffBeforeStart: true})
	raw := e.AddServer(emu.Server{Name: "cold", Status: "off", Labels: map[string]string{labelManaged: "true", labelKey: testCall("cold").IdempotencyKey}})
	id := strconv.FormatInt(raw, 10)
	a := newTestAccount(t, endpoint)
	for range 2 {
		if m, err := a.Get(ctxT(t), id); err != nil || m.State != adapter.StateStopped {
			t.Fatalf("Get = %+v, %v; want stopped", m, err)
		}
	}
	if n := e.Stats()["GET /servers/actions"]; n != 1 {
		t.Errorf("two reads asked the running actions %d times, want once", n)
	}
	if err := a.Power(ctxT(t), id, adapter.PowerOn); err != nil {
		t.Fatal(err)
	}
	if n := e.Stats()[poweron]; n != 1 {
		t.Errorf("Power(on) of a stopped server sent %d power-on(s), want 1", n)
	}
}
