package hooks_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/hooks"
)

// TestUnconsumedNamesTheRouteNeverRequested: a fault aimed at a route the
// client never requests (the table says PATCH, the client updates with
// PUT) is reported with the routes the client did request since the fault
// was set, so a case blames the table and not the client; a fault met, even
// by a request its Skip let through, is not.
func TestUnconsumedNamesTheRouteNeverRequested(t *testing.T) {
	y, h := newToy(t)
	if err := h.Unconsumed(); err != nil {
		t.Fatalf("no fault set: %v", err)
	}
	y.call("GET", "/machines/1") // before the fault: not among the routes made
	if err := h.FailNext(hooks.OpUpdate, hooks.ClassServerError, 0); err != nil {
		t.Fatal(err)
	}
	y.call("PUT", "/machines/1")
	y.call("GET", "/machines/1")
	want := "toy emulator: the fault aimed at PATCH /machines/{id} was never consumed: the adapter made no such request (routes it made: GET /machines/{id} (1), PUT /machines/{id} (1))"
	if err := h.Unconsumed(); err == nil || err.Error() != want {
		t.Errorf("Unconsumed:\n got %v\nwant %s", err, want)
	}
	y.call("PATCH", "/machines/1")
	if err := h.Unconsumed(); err != nil {
		t.Errorf("after the PATCH met the fault: %v", err)
	}

	h.Clear()
	if err := h.FailNext(hooks.OpList, hooks.ClassPartialListing, 0); err != nil {
		t.Fatal(err)
	}
	y.call("GET", "/machines") // the first page, let through
	if err := h.Unconsumed(); err != nil {
		t.Errorf("a partial listing whose first page was requested: %v", err)
	}

	h.Clear()
	if err := h.Revoke(); err != nil {
		t.Fatal(err)
	}
	if err := h.Unconsumed(); err == nil || !strings.Contains(err.Error(), "aimed at * * was never consumed") || !strings.HasSuffix(err.Error(), "(routes it made: none)") {
		t.Errorf("revoked credentials before any request: %v", err)
	}
}

// TestFailNextRefusesARouteTheAPIDoesNotServe: a route of the table that
// no route of the API matches (a typo, or a pattern spelt otherwise than the
// mux's) is refused when the fault is set, naming the op, not left to be
// found never consumed.
func TestFailNextRefusesARouteTheAPIDoesNotServe(t *testing.T) {
	y := &toy{staged: map[string]string{}}
	y.m = faults.New(http.HandlerFunc(y.serve), faults.Config{Routed: func(method, path string) bool {
		return method == http.MethodGet && strings.HasPrefix(path, "/machines")
	}})
	h := hooks.New(y.m, y.table())
	if err := h.FailNext(hooks.OpGet, hooks.ClassServerError, 1); err != nil {
		t.Errorf("a route the API serves: %v", err)
	}
	err := h.FailNext(hooks.OpUpdate, hooks.ClassServerError, 1)
	if err == nil || !strings.HasPrefix(err.Error(), "toy emulator: update: rule PATCH /machines/{id}: the path matches no route of the API") ||
		!strings.Contains(err.Error(), "hooks.Resource") || !strings.Contains(err.Error(), "routes requested so far: none") {
		t.Errorf("a route the API does not serve: %v", err)
	}
	if rules := y.m.Rules(); len(rules) != 1 {
		t.Errorf("rules %+v, want the get fault alone", rules)
	}
}
