package robot_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/robot"
)

// TestConformanceHooksRefuseUnknownWords: an unknown word is an error and
// what Robot cannot show is ErrUnsupported, never a fault quietly not made.
func TestConformanceHooksRefuseUnknownWords(t *testing.T) {
	v := start(t, robot.Options{})
	h := v.e.Conformance()
	id := itoa(v.seed(t, robot.ServerSeed{}).Number)
	for _, err := range []error{
		h.FailNext("get", "no_such_class", 1),
		h.FailNext("no_such_op", "server_error", 1),
		func() error { _, err := h.Stage(id, "no_such_situation"); return err }(),
		func() error { _, err := h.Stage("1", "deleting"); return err }(),
	} {
		if err == nil || errors.Is(err, errors.ErrUnsupported) {
			t.Errorf("an unknown word: %v, want a plain error", err)
		}
	}
	for _, err := range []error{
		h.FailNext("list", "partial_listing", 1),
		h.FailNext("get", "locked", 1),
		func() error { _, err := h.Stage(id, "stopping"); return err }(),
		func() error { _, err := h.Stage(id, "unaddressed"); return err }(),
	} {
		if !errors.Is(err, errors.ErrUnsupported) {
			t.Errorf("what Robot cannot show: %v, want ErrUnsupported", err)
		}
	}
	if rules := v.e.Faults().Rules(); len(rules) != 0 {
		t.Errorf("refused hooks left rules %+v", rules)
	}
}

func TestConformanceHooksAimAtTheirCall(t *testing.T) {
	v := start(t, robot.Options{})
	h := v.e.Conformance()
	n := itoa(v.seed(t, robot.ServerSeed{}).Number)
	if err := h.FailNext("get", "server_error", 1); err != nil {
		t.Fatal(err)
	}
	v.call(t, "GET", "/server", nil) // list is not get
	v.call(t, "GET", "/server/"+n, nil).errorIs(t, 500, "INTERNAL_ERROR")
	if a := v.call(t, "GET", "/server/"+n, nil); a.status != 200 {
		t.Errorf("second get: %d", a.status)
	}
	if err := h.FailNext("update", "rate_limited", 1); err != nil {
		t.Fatal(err)
	}
	e := v.call(t, "POST", "/server/"+n, form("server_name", "x")).errorIs(t, 403, "RATE_LIMIT_EXCEEDED")
	if e.MaxRequest == nil || *e.Interval <= 0 {
		t.Errorf("a scripted rate limit without its budget: %+v", e)
	}
	if err := h.FailNext("power", "locked", 1); err != nil {
		t.Fatal(err)
	}
	v.call(t, "POST", "/reset/"+n, form("type", "hw")).errorIs(t, 409, "RESET_MANUAL_ACTIVE")
	if err := h.Revoke(); err != nil {
		t.Fatal(err)
	}
	v.call(t, "GET", "/key", nil).errorIs(t, 401, "UNAUTHORIZED")
	h.Clear()
	before := h.Requests()
	for situation, want := range map[string]string{"provisioning": "in process", "unrecognised": "hibernating"} {
		raw, err := h.Stage(n, situation)
		var one serverEnvelope
		v.call(t, "GET", "/server/"+n, nil).decode(t, &one)
		if err != nil || raw != want || one.Server.Status != want {
			t.Errorf("%s: raw %q (%v), API says %q", situation, raw, err, one.Server.Status)
		}
	}
	if raw, err := h.Stage(n, "deleting"); err != nil || raw != "cancelled" {
		t.Errorf("deleting: %q %v", raw, err)
	}
	var one serverEnvelope
	v.call(t, "GET", "/server/"+n, nil).decode(t, &one)
	if !one.Server.Cancelled {
		t.Errorf("a deleting server is not cancelled: %+v", one.Server)
	}
	if got := h.Requests() - before; got != 3 {
		t.Errorf("Requests counted %d, want 3", got)
	}
}

// TestControlRoutesSeedServersAndPaceOrders drives the control API as the
// standalone emulator's users do.
func TestControlRoutesSeedServersAndPaceOrders(t *testing.T) {
	v := start(t, robot.Options{})
	post := func(path, body string) (int, string) {
		resp, err := http.Post(v.endpoint+robot.ControlPrefix+path, "application/json", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var b bytes.Buffer
		_, _ = b.ReadFrom(resp.Body)
		return resp.StatusCode, b.String()
	}
	status, body := post("/servers", `{"product":"AX52","dc":"NBG1-DC3","name":"db"}`)
	var s robot.Seeded
	if err := json.Unmarshal([]byte(body), &s); status != 201 || err != nil || s.Product != "AX52" || s.Name != "db" {
		t.Fatalf("seeding: %d %s", status, body)
	}
	if status, body := post("/servers", `{"product":"AX52","dc":"HEL1-DC2"}`); status != 400 || !strings.Contains(body, "FSN1, NBG1") {
		t.Errorf("a datacenter the product is not in: %d %s", status, body)
	}
	if status, body := post("/servers", `{"prodcut":"AX52"}`); status != 400 {
		t.Errorf("a misspelt field: %d %s", status, body)
	}
	if status, body := post("/orders", `{"polls":4,"fail_next":1}`); status != 200 || !strings.Contains(body, `"polls":4`) {
		t.Errorf("order pace: %d %s", status, body)
	}
	var list serverList
	v.call(t, "GET", "/server", nil).decode(t, &list)
	if len(list) != 1 || list[0].Server.ServerNumber != s.Number {
		t.Errorf("seeded server not listed: %+v", list)
	}
	if _, ok := v.e.Stats()["POST /_emulator/robot/servers"]; ok {
		t.Errorf("control routes counted: %v", v.e.Stats())
	}
}
