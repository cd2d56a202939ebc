package robot

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// tappedAccount is e's account reached through a handler that keeps every
// rescue password the webservice answers with: the sentinels of the boot
// into rescue. settings change the account's settings.
func (e *metalEnv) tappedAccount(settings map[string]string) (*account, func() []string) {
	e.t.Helper()
	var mu sync.Mutex
	var passwords []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tee := &teeWriter{ResponseWriter: w}
		e.robot.ServeHTTP(tee, r)
		var out struct {
			Rescue struct {
				Password *string `json:"password"`
			} `json:"rescue"`
		}
		if json.Unmarshal(tee.body.Bytes(), &out) == nil && out.Rescue.Password != nil && *out.Rescue.Password != "" {
			mu.Lock()
			passwords = append(passwords, *out.Rescue.Password)
			mu.Unlock()
		}
	}))
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
	return a.(*account), func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), passwords...)
	}
}

type teeWriter struct {
	http.ResponseWriter
	body bytes.Buffer
}

func (w *teeWriter) Write(b []byte) (int, error) {
	w.body.Write(b)
	return w.ResponseWriter.Write(b)
}

// TestRescueBootsIntoRescue: Rescue arms rescue with the account's key,
// resets the hardware once and returns when the rescue system answers with
// the pinned key, having sent no credential: the account has no
// ssh_private_key, and nothing resolved one. The activation is spent, and
// neither the error-free result nor any log line carries the password
// Robot answered with. A second Rescue finds the machine in rescue and
// resets nothing.
func TestRescueBootsIntoRescue(t *testing.T) {
	e := newMetalEnv(t)
	id, mach := e.claim("rescue-me")
	m, err := e.a.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	a, passwords := e.tappedAccount(nil)
	got, err := a.Rescue(context.Background(), id, m.Claim)
	if err != nil {
		t.Fatalf("Rescue: %v", err)
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
	if _, err := a.Rescue(context.Background(), id, m.Claim); err != nil {
		t.Fatalf("Rescue of a machine in rescue: %v", err)
	}
	if again := e.robot.Stats()["POST /reset/{id}"]; again != resets {
		t.Errorf("a Rescue of a machine in rescue sent %d resets", again-resets)
	}
	seen := passwords()
	if len(seen) == 0 {
		t.Fatal("Robot answered no rescue password, so the sentinel check would pass vacuously")
	}
	for _, pw := range seen {
		e.log.mu.Lock()
		logged := append([]string(nil), e.log.all...)
		e.log.mu.Unlock()
		for _, l := range logged {
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
