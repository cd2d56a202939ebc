package robot_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/robot"
)

func TestServerNameIsPrintableASCIIUpTo100(t *testing.T) {
	v := start(t, robot.Options{})
	path := "/server/" + itoa(v.seed(t, robot.ServerSeed{}).Number)
	claim := "web1~cm~" + strings.Repeat("ab", 16) + "~0123abcd~e"
	var renamed renamedEnvelope
	v.call(t, "POST", path, form("server_name", claim)).decode(t, &renamed)
	if renamed.Server.ServerName != claim {
		t.Errorf("renamed to %q", renamed.Server.ServerName)
	}
	if a := v.call(t, "POST", path, form("server_name", strings.Repeat("x", 100))); a.status != 200 {
		t.Errorf("100 characters: %d %s", a.status, a.body)
	}
	for _, bad := range []string{strings.Repeat("x", 101), "tab\there", "smörgås"} {
		e := v.call(t, "POST", path, form("server_name", bad)).errorIs(t, 400, "INVALID_INPUT")
		if len(e.Invalid) != 1 || e.Invalid[0] != "server_name" {
			t.Errorf("%q: invalid %v", bad, e.Invalid)
		}
	}
	if e := v.call(t, "POST", path, form()).errorIs(t, 400, "INVALID_INPUT"); len(e.Missing) != 1 || e.Missing[0] != "server_name" {
		t.Errorf("missing %v", e.Missing)
	}
	if a := v.call(t, "POST", path, form("server_name", "")); a.status != 200 {
		t.Errorf("unnaming: %d %s", a.status, a.body)
	}
}

// TestCancelledNowServerLeavesAfterTheDelay: a server cancelled for "now"
// is still there, cancelled, until CancelDelay has passed, and then gone.
func TestCancelledNowServerLeavesAfterTheDelay(t *testing.T) {
	v := start(t, robot.Options{CancelDelay: time.Minute})
	keep := v.seed(t, robot.ServerSeed{})
	gone := v.seed(t, robot.ServerSeed{})
	path := "/server/" + itoa(gone.Number)
	v.call(t, "POST", path+"/cancellation", form()).errorIs(t, 400, "INVALID_INPUT")
	var c cancellationEnvelope
	v.call(t, "POST", path+"/cancellation", form("cancellation_date", "now")).decode(t, &c)
	if !c.Cancellation.Cancelled || c.Cancellation.CancellationDate != "2030-05-06" {
		t.Errorf("cancelled: %+v", c)
	}
	v.call(t, "POST", path+"/cancellation", form("cancellation_date", "now")).errorIs(t, 409, "CONFLICT")
	v.clock.advance(time.Minute - time.Second)
	var one serverEnvelope
	v.call(t, "GET", path, nil).decode(t, &one)
	if !one.Server.Cancelled {
		t.Errorf("before the delay: %+v", one)
	}
	v.call(t, "DELETE", path+"/cancellation", nil).errorIs(t, 409, "CONFLICT")
	v.clock.advance(time.Second)
	v.call(t, "GET", path, nil).errorIs(t, 404, "SERVER_NOT_FOUND")
	var list serverList
	v.call(t, "GET", "/server", nil).decode(t, &list)
	if len(list) != 1 || list[0].Server.ServerNumber != keep.Number {
		t.Errorf("after the delay: %+v", list)
	}
}

func TestCancellationForADateCanBeRevoked(t *testing.T) {
	v := start(t, robot.Options{})
	path := "/server/" + itoa(v.seed(t, robot.ServerSeed{}).Number)
	v.call(t, "POST", path+"/cancellation", form("cancellation_date", "2030-05-05")).errorIs(t, 400, "INVALID_INPUT")
	if a := v.call(t, "POST", path+"/cancellation", form("cancellation_date", "2030-06-01", "cancellation_reason", "Project ended")); a.status != 200 {
		t.Fatalf("cancel for a date: %d %s", a.status, a.body)
	}
	if a := v.call(t, "DELETE", path+"/cancellation", nil); a.status != http.StatusNoContent {
		t.Fatalf("revoke: %d %s", a.status, a.body)
	}
	v.clock.advance(60 * 24 * time.Hour)
	var c cancellationEnvelope
	v.call(t, "GET", path+"/cancellation", nil).decode(t, &c)
	if c.Cancellation.Cancelled {
		t.Errorf("revoked cancellation still there: %+v", c)
	}
}

func TestResetTypesAndFailures(t *testing.T) {
	v := start(t, robot.Options{ManualResetDuration: time.Hour})
	s := v.seed(t, robot.ServerSeed{Product: "AX42"})
	path, m := "/reset/"+itoa(s.Number), v.farm.machine(s.Number)
	if e := v.call(t, "POST", path, form("type", "power")).errorIs(t, 400, "INVALID_INPUT"); len(e.Invalid) != 1 || e.Invalid[0] != "type" {
		t.Errorf("AX42 has no power button: %+v", e)
	}
	v.call(t, "POST", path, form()).errorIs(t, 400, "INVALID_INPUT")
	var done struct {
		Reset specReset3 `json:"reset"`
	}
	v.call(t, "POST", path, form("type", "hw")).decode(t, &done)
	if done.Reset.Type != "hw" || done.Reset.ServerNumber != s.Number {
		t.Errorf("reset answer %+v", done)
	}
	v.call(t, "POST", path, form("type", "man")).decode(t, &done)
	v.call(t, "POST", path, form("type", "sw")).errorIs(t, 409, "RESET_MANUAL_ACTIVE")
	v.clock.advance(time.Hour)
	v.call(t, "POST", path, form("type", "sw")).decode(t, &done)
	if _, _, resets := m.state(); strings.Join(resets, ",") != "hw,hw,sw" {
		t.Errorf("machine got %v, want hw, hw (the technician), sw", resets)
	}
	m.mu.Lock()
	m.resetErr = errBroken
	m.mu.Unlock()
	v.call(t, "POST", path, form("type", "hw")).errorIs(t, 500, "RESET_FAILED")

	v.call(t, "POST", "/wol/"+itoa(s.Number), nil).decode(t, &struct {
		Wol specWol `json:"wol"`
	}{})
	m.mu.Lock()
	wakes := m.wakes
	m.mu.Unlock()
	if wakes != 1 {
		t.Errorf("wakes %d", wakes)
	}
	sx := v.seed(t, robot.ServerSeed{Product: "SX65"})
	v.call(t, "POST", "/wol/"+itoa(sx.Number), nil).errorIs(t, 404, "WOL_NOT_AVAILABLE")
}
