package hcloud

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/adaptertest"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

const testCIPublicKey = emu.ExampleCIPublicKey

// rescueAccount is an account whose rescue_ssh_keys setting is keys.
func rescueAccount(t *testing.T, endpoint, keys string) *account {
	t.Helper()
	settings := testSettings(endpoint)
	if keys != "" {
		settings[settingRescueKeys] = keys
	}
	return newTestAccountWith(t, settings, testEnv(testToken))
}

// rescueFixture starts an emulator whose project holds the key ops and
// seeds one managed server named name.
func rescueFixture(t *testing.T, opts emu.Options, name string) (e *emu.Emulator, endpoint string, raw int64, id string) {
	t.Helper()
	e, endpoint = startEmulator(t, opts)
	e.AddSSHKey("ops", testRescuePublicKey)
	raw, id = managedSeed(e, name)
	return e, endpoint, raw, id
}

// wantRescuedOnce fails the test unless server raw runs its rescue system
// after exactly one restart; when says after what.
func wantRescuedOnce(t *testing.T, e *emu.Emulator, raw int64, when string) {
	t.Helper()
	if s, _ := e.Server(raw); !s.InRescue || s.Restarts != 1 {
		t.Errorf("%s: in rescue %t after %d restarts, want in rescue after 1", when, s.InRescue, s.Restarts)
	}
}

// TestRescueArmsTheAccountsKeysAndResets: the keys named by name and by id
// arm rescue, one reset boots it, and Rescue returns once the boot took it.
func TestRescueArmsTheAccountsKeysAndResets(t *testing.T) {
	e, _ := startEmulator(t, emu.Options{ActionPolls: 2})
	ops := e.AddSSHKey("ops", testRescuePublicKey)
	ci := e.AddSSHKey("ci", testCIPublicKey)
	raw, id := managedSeed(e, "rescued")
	tap := emu.NewPasswordTap(e)
	srv := httptest.NewServer(tap)
	t.Cleanup(srv.Close)
	settings := testSettings(srv.URL + emu.BasePath)
	settings[settingRescueKeys] = "ops, " + strconv.FormatInt(ci, 10)
	logs := &textLogger{}
	env := testEnv(testToken)
	env.Log = logs
	a := newTestAccountWith(t, settings, env)
	m, err := a.Rescue(ctxT(t), id, adapter.NewClaim())
	if err != nil {
		t.Fatal(err)
	}
	// The root password enable_rescue answered reaches no log line.
	passwords := tap.Seen()
	if len(passwords) != 1 {
		t.Fatalf("the tap saw %d root passwords, want the one of enable_rescue", len(passwords))
	}
	if strings.Contains(logs.String(), passwords[0]) || strings.Contains(fmt.Sprintf("%+v", m), passwords[0]) {
		t.Errorf("the rescue root password reached the log or the machine (shown as [password]):\n%s",
			strings.ReplaceAll(logs.String(), passwords[0], "[password]"))
	}
	if m.ID != id || m.State != adapter.StateRunning {
		t.Errorf("Rescue returned %s %s, want %s running", m.ID, m.State, id)
	}
	s, _ := e.Server(raw)
	if !s.InRescue || s.RescueEnabled {
		t.Errorf("after Rescue: in rescue %t, rescue_enabled %t; want booted and disarmed", s.InRescue, s.RescueEnabled)
	}
	if got := e.RescueKeys(raw); !slices.Equal(got, []int64{ops, ci}) {
		t.Errorf("rescue armed with keys %v, want %v", got, []int64{ops, ci})
	}
	st := e.Stats()
	if st["POST /servers/{id}/actions/enable_rescue"] != 1 || st["POST /servers/{id}/actions/reset"] != 1 {
		t.Errorf("requests %v, want one enable_rescue and one reset", st)
	}
}

// TestRescueWaitsForTheBoot: the reset's action succeeds as soon as it is
// sent, and the guest boots after it; Rescue returns only once the boot
// took the rescue system (rescue_enabled turned false).
func TestRescueWaitsForTheBoot(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{ActionPolls: 1, BootReads: 3})
	e.AddSSHKey("ops", testRescuePublicKey)
	raw, id := managedSeed(e, "booting")
	if _, err := rescueAccount(t, endpoint, "ops").Rescue(ctxT(t), id, adapter.NewClaim()); err != nil {
		t.Fatal(err)
	}
	s, _ := e.Server(raw)
	if !s.InRescue || s.RescueEnabled {
		t.Errorf("Rescue returned while the server booted: in rescue %t, rescue_enabled %t; want booted and disarmed", s.InRescue, s.RescueEnabled)
	}
}

// TestRescueResetWithALostAnswerIsNotRepeatedOnceTaken: a reset whose
// answer is lost is sent again only while rescue is armed; once its boot
// took rescue, a second reset would boot the disk.
func TestRescueResetWithALostAnswerIsNotRepeatedOnceTaken(t *testing.T) {
	e, endpoint, raw, id := rescueFixture(t, emu.Options{ActionPolls: 0}, "lost")
	if err := e.Faults().DropNext("POST", "/servers/{id}/actions/reset", 1); err != nil {
		t.Fatal(err)
	}
	a := rescueAccount(t, endpoint, "ops")
	if _, err := a.Rescue(ctxT(t), id, adapter.NewClaim()); err != nil {
		t.Fatal(err)
	}
	wantRescuedOnce(t, e, raw, "after a lost reset answer")
}

// TestRescueResetRefusedWithAnAnswerIsSentAgain: a reset the API refused
// (503) was not carried out, so it is sent again at once, with no read of
// rescue_enabled (as many server reads as a Rescue without the refusal);
// one boot into rescue follows.
func TestRescueResetRefusedWithAnAnswerIsSentAgain(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{ActionPolls: 0})
	e.AddSSHKey("ops", testRescuePublicKey)
	_, plain := managedSeed(e, "plain")
	raw, id := managedSeed(e, "refused-reset")
	a := rescueAccount(t, endpoint, "ops")
	e.ResetStats()
	if _, err := a.Rescue(ctxT(t), plain, adapter.NewClaim()); err != nil {
		t.Fatal(err)
	}
	reads := e.Stats()["GET /servers/{id}"]
	e.FailNext("POST", "/servers/{id}/actions/reset", 1, 503, "unavailable")
	e.ResetStats()
	if _, err := a.Rescue(ctxT(t), id, adapter.NewClaim()); err != nil {
		t.Fatal(err)
	}
	st := e.Stats()
	if st["POST /servers/{id}/actions/reset"] != 2 || st["GET /servers/{id}"] != reads {
		t.Errorf("%d reset requests and %d server reads, want the refused reset and one more, and %d reads", st["POST /servers/{id}/actions/reset"], st["GET /servers/{id}"], reads)
	}
	wantRescuedOnce(t, e, raw, "after a refused reset")
}

// TestRescueResetLostBeforeItRanIsSentAgain: a reset whose connection was
// reset before the API ran it left rescue armed, which the read after it
// shows, so it is sent again and boots rescue once.
func TestRescueResetLostBeforeItRanIsSentAgain(t *testing.T) {
	e, endpoint, raw, id := rescueFixture(t, emu.Options{ActionPolls: 0}, "unsent")
	if err := e.Faults().ResetNext("POST", "/servers/{id}/actions/reset", 1); err != nil {
		t.Fatal(err)
	}
	a := rescueAccount(t, endpoint, "ops")
	e.ResetStats()
	if _, err := a.Rescue(ctxT(t), id, adapter.NewClaim()); err != nil {
		t.Fatal(err)
	}
	if n := e.Stats()["POST /servers/{id}/actions/reset"]; n != 2 {
		t.Errorf("%d reset requests, want the lost one and one more", n)
	}
	wantRescuedOnce(t, e, raw, "after a reset lost before it ran")
}

// TestRescueFailedArmingResetsNothing: an enable_rescue action that ends
// in error fails Rescue with the step named, and no reset is sent, which
// would only boot the disk.
func TestRescueFailedArmingResetsNothing(t *testing.T) {
	e, endpoint, raw, id := rescueFixture(t, emu.Options{ActionPolls: 1}, "unarmed")
	e.FailNextAction("enable_rescue", 1, "action_failed", "rescue could not be enabled")
	a := rescueAccount(t, endpoint, "ops")
	e.ResetStats()
	_, err := a.Rescue(ctxT(t), id, adapter.NewClaim())
	if err == nil || !strings.Contains(err.Error(), "enable rescue") {
		t.Fatalf("Rescue after a failed arming: %v, want an error naming the enable rescue step", err)
	}
	if n := e.Stats()["POST /servers/{id}/actions/reset"]; n != 0 {
		t.Errorf("%d reset requests after a failed arming, want none", n)
	}
	if s, _ := e.Server(raw); s.InRescue || s.Restarts != 0 {
		t.Errorf("after a failed arming: in rescue %t after %d restarts, want neither", s.InRescue, s.Restarts)
	}
}

// TestRescueBootNeverTakenNamesTheWayOut: a server that does not take the
// rescue boot is reported as still armed while the wait lasts, and the
// wait's end says so and how to withdraw it.
func TestRescueBootNeverTakenNamesTheWayOut(t *testing.T) {
	e, _ := startEmulator(t, emu.Options{ActionPolls: 0, BootReads: 1 << 30})
	e.AddSSHKey("ops", testRescuePublicKey)
	_, id := managedSeed(e, "stubborn")
	// The boot never comes: the wait ends, as its timeout would, after
	// its third read of the server since the reset.
	ctx, cancel := context.WithCancel(ctxT(t))
	defer cancel()
	var reads atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		e.ServeHTTP(w, r)
		if r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/servers/"+id) && e.Stats()["POST /servers/{id}/actions/reset"] > 0 {
			if reads.Add(1) == 3 {
				cancel()
			}
		}
	}))
	t.Cleanup(srv.Close)
	_, err := rescueAccount(t, srv.URL+emu.BasePath, "ops").Rescue(ctx, id, adapter.NewClaim())
	for _, want := range []string{"last seen: running, rescue still armed", "rescue is still armed", "invoke the action again", "`hcloud server disable-rescue stubborn`"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Rescue of a server that never boots rescue: %v, want %q", err, want)
		}
	}
}

// TestRescueRefusals: without the setting, with a key the project lacks,
// or on a server that is off, Rescue is refused and arms nothing.
func TestRescueRefusals(t *testing.T) {
	for _, tc := range []struct {
		name, keys, status string
		code               adapter.Code
		field              string
	}{
		{"no rescue_ssh_keys", "", "running", adapter.InvalidConfig, settingRescueKeys},
		{"a key the project lacks", "ops,nobody", "running", adapter.InvalidConfig, settingRescueKeys},
		{"a server that is off", "ops", "off", adapter.InvalidState, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, endpoint := startEmulator(t, emu.Options{ActionPolls: 2})
			e.AddSSHKey("ops", testRescuePublicKey)
			raw, id := managedSeed(e, "refused", func(s *emu.Server) { s.Status = tc.status })
			a := rescueAccount(t, endpoint, tc.keys)
			e.ResetStats()
			_, err := a.Rescue(ctxT(t), id, adapter.NewClaim())
			var ae *adapter.Error
			if !errors.As(err, &ae) || ae.Code != tc.code || ae.Field != tc.field {
				t.Fatalf("Rescue: %v, want %s on field %q", err, tc.code, tc.field)
			}
			if s, _ := e.Server(raw); s.RescueEnabled || s.InRescue || s.Restarts != 0 {
				t.Errorf("a refused Rescue armed or booted rescue: %+v", s)
			}
			if tc.field == settingRescueKeys && tc.keys != "" && !strings.Contains(err.Error(), "available: ops") {
				t.Errorf("the refusal of a key the project lacks names no key it has: %v", err)
			}
			if tc.keys == "" && len(e.Stats()) != 0 {
				t.Errorf("Rescue without the setting sent %v, want nothing", e.Stats())
			}
		})
	}
}

// waitsClock never waits, and keeps every wait it was asked for.
type waitsClock struct {
	mu    sync.Mutex
	waits []time.Duration
}

func (c *waitsClock) Now() time.Time { return time.Now() }

func (c *waitsClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	c.waits = append(c.waits, d)
	c.mu.Unlock()
	return adaptertest.InstantClock{}.After(d)
}

// TestRescueRequestsRetryOnTheAPIsBackoff: a request of the boot into
// rescue the API refused is sent again after adapter.DefaultBackoff's
// first wait, as any other operation's request, not at the pace of the
// polls for actions.
func TestRescueRequestsRetryOnTheAPIsBackoff(t *testing.T) {
	e, endpoint, raw, id := rescueFixture(t, emu.Options{ActionPolls: 0}, "backoff")
	e.FailNext("POST", "/servers/{id}/actions/reset", 1, 503, "unavailable")
	settings := testSettings(endpoint)
	settings[settingRescueKeys] = "ops"
	env := testEnv(testToken)
	c := &waitsClock{}
	env.Clock = c
	a := newTestAccountWith(t, settings, env)
	if _, err := a.Rescue(ctxT(t), id, adapter.NewClaim()); err != nil {
		t.Fatal(err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if first := adapter.DefaultBackoff.Delay(1); !slices.Contains(c.waits, first) {
		t.Errorf("the refused reset was sent again after the waits %v; want one of %s", c.waits, first)
	}
	wantRescuedOnce(t, e, raw, "after a refused reset")
}
