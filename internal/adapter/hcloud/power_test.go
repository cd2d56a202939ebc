package hcloud

import (
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// managedSeed is a running server carrying our mark, as Create leaves one.
func managedSeed(e *emu.Emulator, name string, tune ...func(*emu.Server)) (raw int64, id string) {
	s := emu.Server{Name: name, Labels: map[string]string{labelManaged: "true", labelKey: "k-" + name, labelFingerprint: "f"}}
	for _, f := range tune {
		f(&s)
	}
	raw = e.AddServer(s)
	return raw, strconv.FormatInt(raw, 10)
}

func TestShutdownAsksTheGuest(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{ActionPolls: 2})
	raw, id := managedSeed(e, "graceful")
	a := newTestAccount(t, endpoint)
	if err := a.Power(ctxT(t), id, adapter.PowerShutdown); err != nil {
		t.Fatal(err)
	}
	if s, _ := e.Server(raw); s.Status != "off" {
		t.Errorf("after a shutdown the guest honoured: %s, want off", s.Status)
	}
	st := e.Stats()
	if st["POST /servers/{id}/actions/shutdown"] != 1 || st["POST /servers/{id}/actions/poweroff"] != 0 {
		t.Errorf("requests %v, want one shutdown and no poweroff", st)
	}
	e.ResetStats()
	if err := a.Power(ctxT(t), id, adapter.PowerShutdown); err != nil {
		t.Errorf("shutdown of an off server: %v, want nothing to do", err)
	}
	if n := e.Stats()["POST /servers/{id}/actions/shutdown"]; n != 0 {
		t.Errorf("shutdown of an off server sent %d requests, want 0", n)
	}
}

func TestShutdownIgnoredLeavesTheServerRunning(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{ActionPolls: 2})
	raw, id := managedSeed(e, "deaf", func(s *emu.Server) { s.IgnoresACPI = true })
	a := newTestAccount(t, endpoint)
	// The API cannot tell an ignored request from an honoured one: the
	// caller waits for off and falls back to poweroff.
	if err := a.Power(ctxT(t), id, adapter.PowerShutdown); err != nil {
		t.Fatal(err)
	}
	m, err := a.Get(ctxT(t), id)
	if err != nil || m.State != adapter.StateRunning {
		t.Errorf("after an ignored shutdown: %v %v, want running", m.State, err)
	}
	if err := a.Power(ctxT(t), id, adapter.PowerOff); err != nil {
		t.Fatal(err)
	}
	if s, _ := e.Server(raw); s.Status != "off" {
		t.Errorf("poweroff of a guest that ignores ACPI: %s, want off", s.Status)
	}
}

func TestRebootAndResetRestartARunningServer(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{ActionPolls: 2})
	raw, id := managedSeed(e, "restart")
	a := newTestAccount(t, endpoint)
	for i, action := range []adapter.PowerAction{adapter.PowerReboot, adapter.PowerReset} {
		if err := a.Power(ctxT(t), id, action); err != nil {
			t.Fatalf("%s: %v", action, err)
		}
		if s, _ := e.Server(raw); s.Status != "running" || s.Restarts != i+1 {
			t.Errorf("after %s: %s with %d restarts, want running with %d", action, s.Status, s.Restarts, i+1)
		}
	}
	e.FailNextAction("reboot_server", 1, "action_failed", "the guest did not answer")
	if err := a.Power(ctxT(t), id, adapter.PowerReboot); err == nil || !strings.Contains(err.Error(), "the guest did not answer") {
		t.Errorf("a failed reboot: %v, want the action's message", err)
	}

	e.SetServerStatus(raw, "off")
	e.ResetStats()
	for _, action := range []adapter.PowerAction{adapter.PowerReboot, adapter.PowerReset} {
		err := a.Power(ctxT(t), id, action)
		if !adapter.Is(err, adapter.InvalidState) || !strings.Contains(err.Error(), "power it on") {
			t.Errorf("%s of an off server: %v, want InvalidState with the way out", action, err)
		}
	}
	if s, _ := e.Server(raw); s.Status != "off" {
		t.Errorf("a refused restart changed the server: %s, want off", s.Status)
	}
	for route, n := range e.Stats() {
		if strings.HasPrefix(route, "POST ") {
			t.Errorf("a refused restart sent %s %d times", route, n)
		}
	}
}

func TestGracefulActionsRefuseUnmarked(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	raw := e.AddServer(emu.Server{Name: "hand-made"})
	a := newTestAccount(t, endpoint)
	for _, action := range []adapter.PowerAction{adapter.PowerShutdown, adapter.PowerReboot, adapter.PowerReset} {
		if err := a.Power(ctxT(t), strconv.FormatInt(raw, 10), action); !adapter.Is(err, adapter.AccessDenied) {
			t.Errorf("%s of an unmarked server: %v, want AccessDenied", action, err)
		}
	}
	if err := a.Power(ctxT(t), strconv.FormatInt(raw, 10), "hibernate"); !adapter.Is(err, adapter.AccessDenied) && !adapter.Is(err, adapter.InvalidInput) {
		t.Errorf("an unknown action: %v", err)
	}
	if s, _ := e.Server(raw); s.Status != "running" || s.Restarts != 0 {
		t.Errorf("the unmarked server was touched: %+v", s)
	}
}

func TestMachineActionsFollowTheServer(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{ActionPolls: 1_000})
	_, running := managedSeed(e, "running")
	_, stopped := managedSeed(e, "stopped", func(s *emu.Server) { s.Status = "off" })
	_, busy := managedSeed(e, "busy")
	deleting, _ := managedSeed(e, "deleting")
	unmarked := e.AddServer(emu.Server{Name: "unmarked"})
	e.SetServerStatus(deleting, "deleting")
	a := newTestAccount(t, endpoint)
	// A poweroff that has not finished locks the server.
	n, _ := strconv.ParseInt(busy, 10, 64)
	if _, _, err := a.client.Server.Poweroff(ctxT(t), &hcloud.Server{ID: n}); err != nil {
		t.Fatal(err)
	}
	all := []adapter.PowerAction{adapter.PowerOff, adapter.PowerShutdown, adapter.PowerReboot, adapter.PowerReset}
	want := map[string][]adapter.PowerAction{
		running:                         all,
		stopped:                         {adapter.PowerOn},
		busy:                            {},
		strconv.FormatInt(deleting, 10): {},
		strconv.FormatInt(unmarked, 10): {},
	}
	for id, w := range want {
		m, err := a.Get(ctxT(t), id)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(m.Actions, w) {
			t.Errorf("%s (%s, raw %s): actions %v, want %v", m.Name, m.State, m.RawState, m.Actions, w)
		}
	}
	ms, err := a.List(ctxT(t))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range ms {
		if !slices.Equal(m.Actions, want[m.ID]) {
			t.Errorf("listed %s: actions %v, want %v as Get says", m.Name, m.Actions, want[m.ID])
		}
	}
}

// TestShutdownWaitsForTheQueuedStart: a server off while the start its
// create queued still runs is shut down only after that start, so the start
// cannot switch it on behind the shutdown.
func TestShutdownWaitsForTheQueuedStart(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{OffBeforeStart: true, ActionPolls: 5})
	a := newTestAccount(t, endpoint)
	m, err := a.Create(ctxT(t), testCall("web-1"), testRequest("web-1"))
	if err != nil {
		t.Fatal(err)
	}
	untilOff(t, a, m.ID)
	e.ResetStats()
	if err := a.Power(ctxT(t), m.ID, adapter.PowerShutdown); err != nil {
		t.Fatal(err)
	}
	if n := e.Stats()["POST /servers/{id}/actions/shutdown"]; n != 1 {
		t.Errorf("sent %d shutdowns, want one after the start", n)
	}
	if s, _ := e.Server(mustID(t, m.ID)); s.Status != "off" {
		t.Errorf("status %s after the shutdown, want off: the queued start ran behind it", s.Status)
	}
}

// TestUnansweredPowerThatTookEffect: a poweroff the API took but whose
// answer never came within the request bound succeeds once a read of the
// server shows it off (its stopping seen on the way); one the API never
// took stays the unanswered request's error, and neither is sent again.
func TestUnansweredPowerThatTookEffect(t *testing.T) {
	const route = "/servers/{id}/actions/poweroff"
	// The bound only has to outlast the request's way to the emulator on
	// loopback: the answer is held for an hour either way.
	bound := func(o *options) { o.requestTimeout = time.Second }
	t.Run("taken", func(t *testing.T) {
		e, endpoint := startEmulator(t, emu.Options{ActionPolls: 2})
		raw, id := managedSeed(e, "taken")
		a := newTestAccount(t, endpoint, bound)
		e.CommitThenDelayNext("POST", route, 1, time.Hour)
		if err := a.Power(ctxT(t), id, adapter.PowerOff); err != nil {
			t.Fatalf("a poweroff the API took, answer lost: %v, want success", err)
		}
		if s, _ := e.Server(raw); s.Status != "off" {
			t.Errorf("server %s, want off", s.Status)
		}
		if n := e.Stats()["POST "+route]; n != 1 {
			t.Errorf("%d poweroffs sent, want 1", n)
		}
	})
	t.Run("never taken", func(t *testing.T) {
		e, endpoint := startEmulator(t, emu.Options{ActionPolls: 2})
		raw, id := managedSeed(e, "lost")
		a := newTestAccount(t, endpoint, bound)
		e.DelayIfConnectedNext("POST", route, 1, time.Hour)
		if err := a.Power(ctxT(t), id, adapter.PowerOff); !adapter.NoAnswer(err) {
			t.Fatalf("a poweroff the API never took: %v, want the unanswered request's error", err)
		}
		if s, _ := e.Server(raw); s.Status != "running" {
			t.Errorf("server %s, want running", s.Status)
		}
		if n := e.Stats()["POST "+route]; n != 1 {
			t.Errorf("%d poweroffs sent, want 1", n)
		}
	})
}
