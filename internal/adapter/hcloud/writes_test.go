package hcloud

// The writes of the adapter: update, delete and power, each refused on a
// machine without our mark and each ending when the API says it is done.

import (
	"context"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

func TestDeleteAndPowerRefuseUnmarked(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	raw := e.AddServer(emu.Server{Name: "hand-made"})
	id := strconv.FormatInt(raw, 10)
	a := newTestAccount(t, endpoint)
	_, errUpdate := a.Update(ctxT(t), id, adapter.UpdateRequest{Labels: map[string]string{"x": "y"}})
	for what, err := range map[string]error{
		"delete":    a.Delete(ctxT(t), id),
		"power off": a.Power(ctxT(t), id, adapter.PowerOff),
		"update":    errUpdate,
	} {
		if !adapter.Is(err, adapter.AccessDenied) {
			t.Errorf("%s: %v, want AccessDenied", what, err)
			continue
		}
		for _, s := range []string{id, `"hand-made"`, "import"} {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("%s: %q does not mention %s", what, err, s)
			}
		}
	}
	if s, ok := e.Server(raw); !ok || s.Status != "running" || len(s.Labels) != 0 {
		t.Errorf("the unmarked server was touched: %+v", s)
	}
	if ms, err := a.List(ctxT(t)); err != nil || len(ms) != 0 {
		t.Errorf("List = %v, %v; want no managed machines", ms, err)
	}
}

func TestUpdateMarksAnImportedServer(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	raw := e.AddServer(emu.Server{Name: "imported", Labels: map[string]string{"team": "a"}})
	id := strconv.FormatInt(raw, 10)
	a := newTestAccount(t, endpoint)
	mark := adapter.Mark{Key: testCall("imported").IdempotencyKey, Fingerprint: adapter.Fingerprint(testRequest("imported"))}
	answered, err := a.Update(ctxT(t), id, adapter.UpdateRequest{Mark: &mark})
	if err != nil {
		t.Fatal(err)
	}
	m, err := a.Get(ctxT(t), id)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(answered, m) {
		t.Errorf("the update answered %+v, a read shows %+v", answered, m)
	}
	if !m.Managed || m.Key != mark.Key || m.Fingerprint != mark.Fingerprint || m.Labels["team"] != "a" {
		t.Errorf("after marking: %+v", m)
	}
	if ms, err := a.List(ctxT(t)); err != nil || len(ms) != 1 || ms[0].ID != id {
		t.Errorf("List = %v, %v; want the marked server", ms, err)
	}
	name := "renamed"
	if _, err := a.Update(ctxT(t), id, adapter.UpdateRequest{Name: &name, Labels: map[string]string{"team": "b"}}); err != nil {
		t.Fatal(err)
	}
	s, _ := e.Server(raw)
	if s.Name != "renamed" || s.Labels["team"] != "b" || s.Labels[labelKey] != mark.Key || s.Labels[labelManaged] != "true" {
		t.Errorf("after update: %+v", s)
	}
	puts := e.Stats()["PUT /servers/{id}"]
	if _, err := a.Update(ctxT(t), id, adapter.UpdateRequest{Name: &name, Labels: map[string]string{"team": "b"}}); err != nil {
		t.Fatal(err)
	}
	if e.Stats()["PUT /servers/{id}"] != puts {
		t.Error("an update that changes nothing still called the API")
	}
	_, err = a.Update(ctxT(t), id, adapter.UpdateRequest{Labels: map[string]string{labelKey: "forged"}})
	if !adapter.Is(err, adapter.InvalidInput) {
		t.Errorf("forging a mark: %v, want InvalidInput", err)
	}
}

func TestUpdateFromTheCallersRead(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	a := newTestAccount(t, endpoint)
	created, err := a.Create(ctxT(t), testCall("web-1"), testRequest("web-1"))
	if err != nil {
		t.Fatal(err)
	}
	cur, err := a.Get(ctxT(t), created.ID)
	if err != nil {
		t.Fatal(err)
	}
	e.ResetStats()
	name := "web-2"
	mark := adapter.Mark{Key: testCall(name).IdempotencyKey, Fingerprint: cur.Fingerprint}
	got, err := a.Update(ctxT(t), cur.ID, adapter.UpdateRequest{Name: &name, Labels: map[string]string{"env": "prod"}, Mark: &mark, Current: &cur})
	if err != nil {
		t.Fatal(err)
	}
	if stats := e.Stats(); stats["PUT /servers/{id}"] != 1 || len(stats) != 1 {
		t.Errorf("an update from the caller's read sent %v, want one PUT alone", stats)
	}
	s, _ := e.Server(mustID(t, cur.ID))
	if got.Name != "web-2" || s.Name != "web-2" || got.Labels["env"] != "prod" || s.Labels["env"] != "prod" ||
		got.Key != mark.Key || s.Labels[labelKey] != mark.Key || got.Claim != cur.Claim || !got.Managed {
		t.Errorf("update answered %+v; the server is %+v", got, s)
	}
	e.ResetStats()
	again, err := a.Update(ctxT(t), cur.ID, adapter.UpdateRequest{Name: &name, Labels: map[string]string{"env": "prod"}, Mark: &mark, Current: &got})
	if err != nil || len(e.Stats()) != 0 || !reflect.DeepEqual(again, got) {
		t.Errorf("an update that changes nothing: %v, sent %v, answered %+v", err, e.Stats(), again)
	}
}

func TestDeleteReturnsOnceAccepted(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{ActionPolls: 3})
	a := newTestAccount(t, endpoint)
	m, err := a.Create(ctxT(t), testCall("web-1"), testRequest("web-1"))
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Delete(ctxT(t), m.ID); err != nil {
		t.Fatal(err)
	}
	got, err := a.Get(ctxT(t), m.ID)
	switch {
	case adapter.IsNotFound(err):
	case err != nil:
		t.Fatal(err)
	case got.State != adapter.StateDeleting:
		t.Errorf("right after Delete: state %s, want deleting (still present)", got.State)
	}
	// A second Delete while deleting is accepted; once gone it is NotFound.
	if err := a.Delete(ctxT(t), m.ID); err != nil && !adapter.IsNotFound(err) {
		t.Errorf("second delete: %v", err)
	}
	for range 10 {
		if _, err = a.Get(ctxT(t), m.ID); adapter.IsNotFound(err) {
			break
		}
	}
	if !adapter.IsNotFound(err) {
		t.Fatalf("server still there after polls: %v", err)
	}
	if err := a.Delete(ctxT(t), m.ID); !adapter.IsNotFound(err) {
		t.Errorf("delete of a gone server: %v, want NotFound", err)
	}
	if len(e.Servers()) != 0 {
		t.Errorf("emulator still holds %v", e.Servers())
	}
}

func TestPowerWaitsForTheAction(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{ActionPolls: 3})
	a := newTestAccount(t, endpoint)
	m, err := a.Create(ctxT(t), testCall("web-1"), testRequest("web-1"))
	if err != nil {
		t.Fatal(err)
	}
	raw := mustID(t, m.ID)
	for range 10 {
		if s, _ := e.Server(raw); s.Status == "running" {
			break
		}
		_, _ = a.Get(ctxT(t), m.ID)
	}
	if err := a.Power(ctxT(t), m.ID, adapter.PowerOff); err != nil {
		t.Fatal(err)
	}
	if s, _ := e.Server(raw); s.Status != "off" {
		t.Errorf("after Power(off) returned: status %q, want off", s.Status)
	}
	if err := a.Power(ctxT(t), m.ID, adapter.PowerOn); err != nil {
		t.Fatal(err)
	}
	if s, _ := e.Server(raw); s.Status != "running" {
		t.Errorf("after Power(on) returned: status %q, want running", s.Status)
	}
	e.FailNextAction("stop_server", 1, "action_failed", "the host did not answer")
	err = a.Power(ctxT(t), m.ID, adapter.PowerOff)
	if err == nil || !strings.Contains(err.Error(), "the host did not answer") {
		t.Errorf("a failed action: %v, want its message", err)
	}
}

func TestPowerHonoursTheContext(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{ActionPolls: 1_000_000})
	id := strconv.FormatInt(e.AddServer(emu.Server{Name: "slow", Labels: map[string]string{labelManaged: "true", labelKey: "k", labelFingerprint: "f"}}), 10)
	a := newTestAccountWith(t, testSettings(endpoint), adapter.Env{
		Secrets: adapter.SecretResolver{Provider: map[string]string{"hcloud": testToken}}, Clock: adapter.RealClock{},
	})
	// The action never finishes, so only the deadline can end the call:
	// the error wrapping it is the proof, whatever the machine's speed.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	err := a.Power(ctx, id, adapter.PowerOff)
	if !adapter.Is(err, adapter.Transient) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want Transient wrapping the deadline", err)
	}
}
