package robot_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// walker sends requests to the emulator and holds every answer to the
// API description: the operation must be described, the status documented
// for it, and the body shaped as the description's schema for that status,
// field for field, with its types and nulls. It notes which routes
// answered a success and which a failure, so a route left out of the walk
// fails the test.
type walker struct {
	t      *testing.T
	d      *description
	v      *env
	mux    *http.ServeMux
	ok     map[string]bool
	failed map[string]bool
	// allowed are the answers the real webservice gives where the
	// description's schema, drawn from one example answer, shows another
	// state: "ROUTE FIELD" to why. Each must be met on the walk, so none
	// outlives the answer it excuses.
	allowed map[string]string
	used    map[string]bool
	// beyond are the routes the real webservice serves and the description
	// lacks, by route; any other route the description lacks is refused.
	beyond map[string]beyondRoute
}

// beyondRoute says why a route the description lacks is served, and
// which described operation its answers are held to instead.
type beyondRoute struct {
	why, like string
}

func newWalker(t *testing.T, d *description, v *env) *walker {
	w := &walker{t: t, d: d, v: v, mux: http.NewServeMux(), ok: map[string]bool{}, failed: map[string]bool{},
		used: map[string]bool{}, allowed: map[string]string{
			"GET /server/{n} .server.linked_storagebox": "Server2 shows a linked storage box's number; a server without one answers null",
			"GET /server/{n}/cancellation .cancellation.cancellation_reason": "Cancellation shows the reasons on offer; once cancelled, " +
				"Robot answers the reason given (a string, or null), as Cancellation2 shows",
			"GET /order/server/transaction/{id} .transaction.server_number": "Transaction2 shows a delivered order; " +
				"one in process has no server yet: null, as the listing's Transaction shows",
			"GET /order/server/transaction/{id} .transaction.server_ip": "as server_number",
			"GET /wol/{n} .error.max_request": "Robot's documentation adds the budget to RATE_LIMIT_EXCEEDED, " +
				"which the description's Error leaves out",
			"GET /wol/{n} .error.interval": "as max_request",
			"POST /reset/{n} .reset.server_number": "Reset3 leaves it out, but the webservice answers it, " +
				"as a recorded answer of the real webservice shows (hrobot-go's reset_post.json: \"server_number\":321)",
		}}
	w.beyond = map[string]beyondRoute{
		"POST /server/{n}/reversal": {
			why: "Robot revokes a server's order there (its documentation's \"reversal\"), which the description lacks; " +
				"it answers the server's cancellation, which clients decode it as (hrobot-go's ServerReverse)",
			like: "POST /server/{n}/cancellation",
		},
	}
	for _, r := range v.e.Routes() {
		w.mux.HandleFunc(r, func(http.ResponseWriter, *http.Request) {})
	}
	return w
}

// operation is the description's operation for an emulator route, or
// for a route served beyond the description, the operation its answers
// are held to; nil for a route the description lacks and no allowance
// lists.
func (w *walker) operation(route string) *operation {
	if op, _ := w.d.op(route); op != nil {
		return op
	}
	if b, ok := w.beyond[route]; ok {
		op, _ := w.d.op(b.like)
		return op
	}
	return nil
}

// checkRoutes refuses a route the description lacks unless it is served
// beyond the description, and an allowance for a route the emulator does
// not serve, that the description has, or held to an operation it lacks.
func (w *walker) checkRoutes() {
	routes := w.v.e.Routes()
	for _, r := range routes {
		if w.operation(r) == nil {
			w.t.Errorf("route %s: the description has no such operation", r)
		}
	}
	for r, b := range w.beyond {
		if op, _ := w.d.op(r); op != nil {
			w.t.Errorf("route %s is served beyond the description (%s), but the description has it: remove the allowance", r, b.why)
		}
		if op, _ := w.d.op(b.like); op == nil {
			w.t.Errorf("route %s is held to %s, which the description lacks", r, b.like)
		}
		if !slices.Contains(routes, r) {
			w.t.Errorf("route %s is allowed beyond the description (%s), but the emulator does not serve it", r, b.why)
		}
	}
}

// call sends one request with form (nil: no body) and checks its answer.
func (w *walker) call(method, path string, form url.Values) answer {
	w.t.Helper()
	return w.callAs(testUser, testPassword, method, path, form)
}

func (w *walker) callAs(user, password, method, path string, form url.Values) answer {
	w.t.Helper()
	a := w.v.callAs(w.t, user, password, method, path, form)
	req, _ := http.NewRequest(method, "http://emulator"+path, nil)
	_, route := w.mux.Handler(req)
	if route == "" {
		w.t.Errorf("%s %s: the emulator serves no route there", method, path)
		return a
	}
	op := w.operation(route)
	if op == nil {
		w.t.Errorf("%s: the description has no such operation", route)
		return a
	}
	what := route + " answered " + http.StatusText(a.status)
	if a.status < 400 {
		w.ok[route] = true
		if !op.documents(a.status) {
			w.t.Errorf("%s (%d): the description documents no such status", what, a.status)
		}
	} else {
		w.failed[route] = true
	}
	if a.status == http.StatusNoContent {
		if len(a.body) != 0 {
			w.t.Errorf("%s with a body: %s", what, a.body)
		}
		return a
	}
	var body any
	if err := json.Unmarshal(a.body, &body); err != nil {
		w.t.Errorf("%s: not JSON: %v: %s", what, err, a.body)
		return a
	}
	s := op.responseSchema(a.status)
	if s == nil {
		w.t.Errorf("%s: the description shows no body for it: %s", what, a.body)
		return a
	}
	for _, diff := range w.d.conform("", body, s) {
		field, _, _ := strings.Cut(diff, ":")
		if key := route + " " + field; w.allowed[key] != "" {
			w.used[key] = true
			continue
		}
		w.t.Errorf("%s: %s", what, diff)
	}
	if a.status >= 400 {
		var e errorEnvelope
		if json.Unmarshal(a.body, &e) != nil || e.Error.Status != a.status || e.Error.Code == "" {
			w.t.Errorf("%s: error.status and error.code do not name the answer: %s", what, a.body)
		}
	}
	return a
}

// want checks that a call answered status (and, for a failure, code).
func want(t *testing.T, a answer, status int, code string) {
	t.Helper()
	if a.status != status {
		t.Errorf("answer %d %s, want %d %s", a.status, a.body, status, code)
		return
	}
	if code != "" {
		var e errorEnvelope
		_ = json.Unmarshal(a.body, &e)
		if e.Error.Code != code {
			t.Errorf("answer %d %s, want code %s", a.status, a.body, code)
		}
	}
}
