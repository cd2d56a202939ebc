package robot

import (
	"context"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/adaptertest"
	robotemu "github.com/seedcompute/terraform-provider-compute/internal/emulator/robot"
)

// tappedAccount is e's account reached through a robotemu.PasswordTap,
// which keeps every rescue password the webservice answers with: the
// sentinels of the boot into rescue. settings change the account's
// settings.
func (e *metalEnv) tappedAccount(settings map[string]string) (*account, func() []string) {
	e.t.Helper()
	tap := robotemu.NewPasswordTap(e.robot)
	srv := httptest.NewServer(tap)
	e.t.Cleanup(srv.Close)
	all := map[string]string{
		"user": "provider://robot_user", "password": "provider://robot_password", "endpoint": srv.URL,
		"ssh_key": e.a.sshKey, "ssh_port": strconv.Itoa(e.farm.SSHPort()),
	}
	for k, v := range settings {
		all[k] = v
	}
	d := definition(options{poll: adapter.Backoff{Initial: time.Millisecond, Max: time.Millisecond}, requestTimeout: 5 * time.Second})
	norm, err := d.Normalize(all, nil)
	if err != nil {
		e.t.Fatal(err)
	}
	a, err := d.New(norm, adapter.Env{Secrets: e.secrets, Clock: adapter.RealClock{}, Log: e.log})
	if err != nil {
		e.t.Fatal(err)
	}
	return a.(*account), tap.Seen
}

// TestRescueBootsIntoRescue: Rescue arms rescue with the account's key,
// resets the hardware once and returns when the rescue system answers with
// the pinned key, having sent no credential: the account has no
// ssh_private_key, and nothing resolved one. The activation is spent, and
// neither the error-free result nor any log line carries the password
// Robot answered with. A second Rescue, whose first read fails once, finds
// the machine in rescue, resets nothing and says so to its caller.
func TestRescueBootsIntoRescue(t *testing.T) {
	e := newMetalEnv(t)
	id, mach := e.claim("rescue-me")
	m, err := e.a.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	a, passwords := e.tappedAccount(nil)
	first := &adaptertest.Log{}
	got, err := a.Rescue(adapter.WithLogger(context.Background(), first), id, m.Claim)
	if err != nil {
		t.Fatalf("Rescue: %v", err)
	}
	if all := first.Text(); strings.Contains(all, "nothing is armed or reset") {
		t.Errorf("a Rescue that reset the machine said it reset nothing:\n%s", all)
	}
	if mach.Booted() != "rescue" || mach.Armed() {
		t.Errorf("after Rescue the machine runs %q with rescue armed %t; want rescue, the activation spent", mach.Booted(), mach.Armed())
	}
	if got.ID != id || got.State != adapter.StateRunning || got.Claim != m.Claim {
		t.Errorf("Rescue returned %+v; want machine %s running with its claim", got, id)
	}
	if n := len(mach.Commands()); n != 0 {
		t.Errorf("Rescue ran %d commands in the rescue system; it only probes the pinned key", n)
	}
	if n := e.secrets.count("provider://ssh_key"); n != 0 {
		t.Errorf("Rescue resolved the private key %d times; it needs no credential on the machine", n)
	}
	resets := e.robot.Stats()["POST /reset/{id}"]
	// The caller runs Rescue once, so its own reads are retried too.
	if err := e.robot.Faults().FailNext("GET", "/server/{id}", 1, 503, "MAINTENANCE"); err != nil {
		t.Fatal(err)
	}
	said := &adaptertest.Log{}
	if _, err := a.Rescue(adapter.WithLogger(context.Background(), said), id, m.Claim); err != nil {
		t.Fatalf("Rescue of a machine in rescue, its first read failing once: %v", err)
	}
	if again := e.robot.Stats()["POST /reset/{id}"]; again != resets {
		t.Errorf("a Rescue of a machine in rescue sent %d resets", again-resets)
	}
	if all := said.Text(); !strings.Contains(all, "runs its rescue system already: nothing is armed or reset") {
		t.Errorf("a Rescue of a machine in rescue did not tell its caller that nothing was reset:\n%s", all)
	}
	seen := passwords()
	if len(seen) == 0 {
		t.Fatal("Robot answered no rescue password, so the sentinel check would pass vacuously")
	}
	for _, pw := range seen {
		for _, l := range e.log.Lines() {
			if strings.Contains(l, pw) {
				t.Errorf("the rescue password is in a log line: %s", l)
			}
		}
		if strings.Contains(got.Name+got.RawState, pw) {
			t.Errorf("the rescue password is in the machine returned: %+v", got)
		}
	}
}

// TestRescueNeedsSSHKey: without ssh_key there is no key to arm rescue
// with, and the operator could not log in: InvalidConfig on ssh_key,
// before anything is sent.
func TestRescueNeedsSSHKey(t *testing.T) {
	e := newMetalEnv(t)
	id, mach := e.claim("no-key")
	m, err := e.a.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := e.tappedAccount(map[string]string{"ssh_key": ""})
	before := e.robot.Stats()
	_, err = a.Rescue(context.Background(), id, m.Claim)
	if !adapter.Is(err, adapter.InvalidConfig) || adapter.FieldOf(err) != settingSSHKey {
		t.Fatalf("Rescue without ssh_key: %v (code %s, field %q); want InvalidConfig on ssh_key", err, adapter.CodeOf(err), adapter.FieldOf(err))
	}
	if after := e.robot.Stats(); total(after) != total(before) || mach.Armed() {
		t.Errorf("the refused Rescue sent %d requests, rescue armed %t", total(after)-total(before), mach.Armed())
	}
}

func total(stats map[string]int) int {
	n := 0
	for _, v := range stats {
		n += v
	}
	return n
}
