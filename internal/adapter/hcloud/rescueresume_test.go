package hcloud

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// interrupted leaves on the server what a killed invocation leaves: rescue
// armed, and a reset sent (when reset; else only enable_rescue sent), with their actions
// still running, since the emulator ends them only after several reads.
func interrupted(t *testing.T, a *account, id string, reset bool) {
	t.Helper()
	ctx := ctxT(t)
	s, err := a.server(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := a.rescueKeyIDs(ctx, "seed")
	if err != nil {
		t.Fatal(err)
	}
	if !reset {
		req, _ := a.client.NewRequest(ctx, http.MethodPost, "/servers/"+id+"/actions/enable_rescue",
			strings.NewReader(`{"type":"linux64","ssh_keys":[`+strconv.FormatInt(keys[0], 10)+`]}`))
		if _, err := a.client.Do(req, nil); err != nil {
			t.Fatal(err)
		}
		return
	}
	if _, err := a.armRescue(ctx, "seed", s, keys); err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.client.Server.Reset(ctx, s); err != nil {
		t.Fatal(err)
	}
}

// TestRescueWaitsForAResetStillRunning: the reset of a killed invocation
// still runs on the armed server; the next one waits for it and for the
// boot, and sends neither enable_rescue nor reset: one boot.
func TestRescueWaitsForAResetStillRunning(t *testing.T) {
	e, endpoint, raw, id := rescueFixture(t, emu.Options{ActionPolls: 3}, "killed-reset")
	a := rescueAccount(t, endpoint, "ops")
	interrupted(t, a, id, true)
	e.ResetStats()
	if _, err := a.Rescue(ctxT(t), id, adapter.NewClaim()); err != nil {
		t.Fatal(err)
	}
	st := e.Stats()
	if st["POST /servers/{id}/actions/enable_rescue"] != 0 || st["POST /servers/{id}/actions/reset"] != 0 {
		t.Errorf("requests %v, want no enable_rescue and no reset: the killed run's reset boots rescue", st)
	}
	wantRescuedOnce(t, e, raw, "after the rerun")
}

// TestRescueWaitsForAnArmingStillRunning: the enable_rescue of a killed
// invocation still runs; the next one waits for it, does not send it
// again, and resets once.
func TestRescueWaitsForAnArmingStillRunning(t *testing.T) {
	e, endpoint, raw, id := rescueFixture(t, emu.Options{ActionPolls: 3}, "killed-arming")
	a := rescueAccount(t, endpoint, "ops")
	interrupted(t, a, id, false)
	e.ResetStats()
	if _, err := a.Rescue(ctxT(t), id, adapter.NewClaim()); err != nil {
		t.Fatal(err)
	}
	st := e.Stats()
	if st["POST /servers/{id}/actions/enable_rescue"] != 0 || st["POST /servers/{id}/actions/reset"] != 1 {
		t.Errorf("requests %v, want no enable_rescue and one reset", st)
	}
	wantRescuedOnce(t, e, raw, "after the rerun")
}

// TestRescueLockedResetWaitsForTheLostOne: a reset whose answer was lost
// still runs when the next is sent, which is refused `locked`; the wait for
// the running actions finds the lost reset, and no other is sent.
func TestRescueLockedResetWaitsForTheLostOne(t *testing.T) {
	e, endpoint, raw, id := rescueFixture(t, emu.Options{ActionPolls: 3}, "lost-reset")
	if err := e.Faults().DropNext("POST", "/servers/{id}/actions/reset", 1); err != nil {
		t.Fatal(err)
	}
	if _, err := rescueAccount(t, endpoint, "ops").Rescue(ctxT(t), id, adapter.NewClaim()); err != nil {
		t.Fatal(err)
	}
	wantRescuedOnce(t, e, raw, "after a lost reset answer")
}

// cancelAfter serves e and cancels when route has been asked for more than
// n times: the end a timeout would bring, counted, not timed.
func cancelAfter(t *testing.T, e *emu.Emulator, route string, n int, cancel context.CancelFunc) string {
	t.Helper()
	var seen atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.ServeHTTP(w, r)
		if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, route) && seen.Add(1) > int32(n) {
			cancel()
		}
	}))
	t.Cleanup(srv.Close)
	return srv.URL + emu.BasePath
}

// TestRescueLockedArmingWaitsForTheLostOne: the answer of enable_rescue is
// dropped, and its action ends only when read (one poll); the next
// enable_rescue, refused `locked`, reads the server's running actions,
// which ends it, and the boot into rescue succeeds long before the counted
// end.
func TestRescueLockedArmingWaitsForTheLostOne(t *testing.T) {
	e, _ := startEmulator(t, emu.Options{ActionPolls: 1})
	e.AddSSHKey("ops", testRescuePublicKey)
	raw, id := managedSeed(e, "lost-arming")
	if err := e.Faults().DropNext("POST", "/servers/{id}/actions/enable_rescue", 1); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(ctxT(t))
	defer cancel()
	endpoint := cancelAfter(t, e, "/actions/enable_rescue", 5, cancel)
	e.ResetStats()
	if _, err := rescueAccount(t, endpoint, "ops").Rescue(ctx, id, adapter.NewClaim()); err != nil {
		t.Fatal(err)
	}
	st := e.Stats()
	if n := st["POST /servers/{id}/actions/enable_rescue"]; n < 1 || n > 2 || st["POST /servers/{id}/actions/reset"] != 1 {
		t.Errorf("requests %v, want one or two enable_rescue and one reset", st)
	}
	wantRescuedOnce(t, e, raw, "after a lost arming answer")
}

// TestRescueFailedResetSaysRescueIsArmed: a reset lost before it ran, then
// refused until the invocation's end, fails naming the armed server, the
// reset that may still land, and both ways out.
func TestRescueFailedResetSaysRescueIsArmed(t *testing.T) {
	e, _ := startEmulator(t, emu.Options{ActionPolls: 0})
	e.AddSSHKey("ops", testRescuePublicKey)
	_, id := managedSeed(e, "unlucky")
	if err := e.Faults().ResetNext("POST", "/servers/{id}/actions/reset", 1); err != nil {
		t.Fatal(err)
	}
	e.FailNext("POST", "/servers/{id}/actions/reset", 1000, 503, "unavailable")
	ctx, cancel := context.WithCancel(ctxT(t))
	defer cancel()
	endpoint := cancelAfter(t, e, "/actions/reset", 3, cancel)
	_, err := rescueAccount(t, endpoint, "ops").Rescue(ctx, id, adapter.NewClaim())
	for _, want := range []string{`("unlucky"), so its next boot takes it`, "may still be carried out", "invoke the action again",
		"`hcloud server disable-rescue unlucky`"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Rescue whose reset failed: %v, want %q", err, want)
		}
	}
}
