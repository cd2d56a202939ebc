package robot_test

import (
	"strings"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/robot"
)

// TestRescueIsArmedUntilTheMachineBootsIntoIt: activation arms the machine
// with the named keys and answers a password and the rescue host keys;
// once the machine booted into rescue, Robot disarms it.
func TestRescueIsArmedUntilTheMachineBootsIntoIt(t *testing.T) {
	v := start(t, robot.Options{})
	s := v.seed(t, robot.ServerSeed{})
	path, m := "/boot/"+itoa(s.Number)+"/rescue", v.farm.machine(s.Number)
	if _, err := v.e.AddKey("deploy", edKey); err != nil {
		t.Fatal(err)
	}
	if e := v.call(t, "POST", path, form("os", "linux", "arch", "64", "authorized_key[]", rsaFP)).errorIs(t, 400, "INVALID_INPUT"); len(e.Invalid) != 1 || e.Invalid[0] != "authorized_key" {
		t.Errorf("a key not under /key: %+v", e)
	}
	v.call(t, "POST", path, form("authorized_key[]", edKeyFP)).errorIs(t, 400, "INVALID_INPUT")
	if armed, _, _ := m.state(); armed {
		t.Fatal("a refused activation armed the machine")
	}

	var act rescueEnvelope
	v.call(t, "POST", path, form("os", "linux", "arch", "64", "authorized_key[]", edKeyFP)).decode(t, &act)
	r := act.Rescue
	if !r.Active || r.Password == nil || len(*r.Password) < 10 || len(r.AuthorizedKey) != 1 || r.AuthorizedKey[0].Key.Fingerprint != edKeyFP {
		t.Errorf("activation %+v", r)
	}
	if len(r.HostKey) != 1 || r.HostKey[0].Key.Fingerprint != m.RescueHostKeys()[0].SHA256 || r.HostKey[0].Key.Type != "ED25519" {
		t.Errorf("host keys %+v, want the machine's SHA256 one", r.HostKey)
	}
	armed, keys, _ := m.state()
	if !armed || len(keys) != 1 || keys[0] != strings.Join(strings.Fields(edKey)[:2], " ") {
		t.Errorf("machine armed %v with %q", armed, keys)
	}
	v.call(t, "POST", path, form("os", "linux", "arch", "64")).errorIs(t, 409, "BOOT_ALREADY_ENABLED")

	v.call(t, "POST", "/reset/"+itoa(s.Number), form("type", "hw"))
	var still rescueEnvelope
	v.call(t, "GET", path, nil).decode(t, &still)
	if !still.Rescue.Active {
		t.Errorf("disarmed before the machine booted")
	}
	m.boot()
	waitDisarmed(t, m)
	var after rescueEnvelope
	v.call(t, "GET", path, nil).decode(t, &after)
	if after.Rescue.Active || after.Rescue.Password != nil || m.Armed() {
		t.Errorf("after booting into rescue: %+v, machine armed %v", after.Rescue, m.Armed())
	}
	var last rescueEnvelope
	a := v.call(t, "GET", path+"/last", nil)
	a.decode(t, &last)
	if last.Rescue.Password != nil || strings.Contains(string(a.body), *r.Password) || len(last.Rescue.HostKey) != 1 || len(last.Rescue.AuthorizedKey) != 1 {
		t.Errorf("last activation %s", a.body)
	}
}

func TestRescueDeactivationDisarms(t *testing.T) {
	v := start(t, robot.Options{})
	s := v.seed(t, robot.ServerSeed{})
	path, m := "/boot/"+itoa(s.Number)+"/rescue", v.farm.machine(s.Number)
	v.call(t, "GET", path+"/last", nil).errorIs(t, 404, "NOT_FOUND")
	v.call(t, "POST", path, form("os", "linux", "arch", "64"))
	var off rescueEnvelope
	v.call(t, "DELETE", path, nil).decode(t, &off)
	if off.Rescue.Active || m.Armed() {
		t.Errorf("after DELETE: %+v, armed %v", off.Rescue, m.Armed())
	}
	waitDisarmed(t, m)
	// Armed again, and the old activation's watcher must not disarm the new.
	v.call(t, "POST", path, form("os", "linux", "arch", "64"))
	var on rescueEnvelope
	v.call(t, "GET", path, nil).decode(t, &on)
	if !on.Rescue.Active {
		t.Errorf("second activation not active")
	}
}

// waitDisarmed waits, bounded, for the webservice to disarm m.
func waitDisarmed(t *testing.T, m *fakeMachine) {
	t.Helper()
	select {
	case <-m.disarmed:
	case <-time.After(time.Minute):
		t.Fatal("the webservice never disarmed the machine")
	}
}

// TestRescueSpentBootsTheDiskAndAnotherActivationHasNewKeys: a reset after
// the boot that spent the activation starts the disk, and the rescue
// system armed again announces host keys of its own, which GET …/rescue
// and …/last then show, as Robot makes fresh keys for each activation.
func TestRescueSpentBootsTheDiskAndAnotherActivationHasNewKeys(t *testing.T) {
	v := start(t, robot.Options{})
	s := v.seed(t, robot.ServerSeed{})
	path, m := "/boot/"+itoa(s.Number)+"/rescue", v.farm.machine(s.Number)
	var first rescueEnvelope
	v.call(t, "POST", path, form("os", "linux", "arch", "64")).decode(t, &first)
	v.call(t, "POST", "/reset/"+itoa(s.Number), form("type", "hw"))
	m.boot()
	waitDisarmed(t, m)
	v.call(t, "POST", "/reset/"+itoa(s.Number), form("type", "hw"))
	m.boot()
	if got := m.Booted(); got != "none" {
		t.Fatalf("a reset after the activation was spent booted %q, want the (empty) disk", got)
	}

	var second, now, last rescueEnvelope
	v.call(t, "POST", path, form("os", "linux", "arch", "64")).decode(t, &second)
	v.call(t, "GET", path, nil).decode(t, &now)
	v.call(t, "GET", path+"/last", nil).decode(t, &last)
	fp := func(r rescueEnvelope) string {
		if len(r.Rescue.HostKey) != 1 {
			t.Fatalf("host keys %+v, want one", r.Rescue.HostKey)
		}
		return r.Rescue.HostKey[0].Key.Fingerprint
	}
	if fp(second) == fp(first) {
		t.Errorf("the second activation announced the first one's host key %s", fp(first))
	}
	if fp(second) != m.RescueHostKeys()[0].SHA256 || fp(now) != fp(second) || fp(last) != fp(second) {
		t.Errorf("activation %s, GET %s, last %s; want the machine's new key %s", fp(second), fp(now), fp(last), m.RescueHostKeys()[0].SHA256)
	}
	v.call(t, "POST", "/reset/"+itoa(s.Number), form("type", "hw"))
	m.boot()
	if got := m.Booted(); got != "rescue" {
		t.Errorf("a reset with rescue armed again booted %q, want rescue", got)
	}
}
