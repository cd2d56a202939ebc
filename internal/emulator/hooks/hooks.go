// Package hooks is the ready-made implementation of the fault hooks the
// adapter conformance suite asks of a backend's emulator (conformance.Faults
// in internal/adapter/conformance): FailNext, Revoke, Clear, Stage,
// Requests and Unconsumed. An emulator that wraps its API in the faults
// middleware gets all of them from a Table, which says in its API's terms
// the request each contract call is judged by, how the API answers each
// class of failure and revoked credentials, and how a machine is put into
// each situation; what
// every API does alike (a hang, an answer dropped after the commit, a
// connection reset, counting requests, the vocabulary and its refusals)
// lives here once.
//
// A new emulator's hooks are its table:
//
//	func (e *Emulator) Conformance() *hooks.Hooks {
//		return hooks.New(e.faults, hooks.Table{
//			Emulator: "toy",
//			Routes: hooks.Routes{
//				Get: hooks.Route{Method: "GET", Path: "/machines/{id}"}, List: hooks.Route{Method: "GET", Path: "/machines"},
//				Create: hooks.Route{Method: "POST", Path: "/machines"}, Delete: hooks.Route{Method: "DELETE", Path: "/machines/{id}"},
//				Power: hooks.Route{Method: "POST", Path: "/machines/{id}/power"}, Update: hooks.Route{Method: "PATCH", Path: "/machines/{id}"},
//			},
//			Answers: hooks.Answers{
//				ServerError: hooks.Answer{Status: 500, Code: "internal"},
//				RateLimited: hooks.Answer{Status: 429, Code: "slow_down", Headers: func() map[string]string {
//					return map[string]string{"Retry-After": "30"}
//				}},
//				AuthRefused:    hooks.Answer{Status: 403, Code: "forbidden"},
//				Locked:         hooks.Cannot("the toy API locks nothing"),
//				PartialListing: hooks.Cannot("GET /machines answers every machine at once, it has no pages to lose"),
//			},
//			Revoked: hooks.Answer{Status: 401, Code: "unauthorized"},
//			Latency: e.opts.Latency,
//			Stage:   e.stage, // func(id, situation string) (raw string, err error)
//		})
//	}
//
// The test's toy emulator (hooks_test.go) is such a table, served. An API
// in the plainest REST shape (one collection, HTTP's statuses, the
// middleware's generic error body) takes the ready parts of plain.go:
// Routes: Resource("/machines", "/power"), Answers: PlainAnswers(),
// Revoked: PlainRevoked().
//
// The vocabulary is the suite's, spelt out here as strings because
// emulators never import the contract or its suite. A word the hooks do not
// know is a plain error, and so is a class the table forgot, so a mismatch
// fails a case instead of skipping it; what the API cannot show is an error
// wrapping errors.ErrUnsupported, which skips the case that needs it.
//
// It imports the standard library and internal/emulator/faults only.
package hooks

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
)

// Route is the request a contract call is judged by, as a faults rule
// matches it: a method ("*" for any) and a route or path, a trailing "*"
// making it a prefix ("/servers/{id}/actions/*").
type Route struct{ Method, Path string }

// Table is what one emulator tells the hooks about its API.
type Table struct {
	// Emulator names the emulator in errors ("hcloud" reads "hcloud
	// emulator: …").
	Emulator string
	// Routes are the requests the contract calls are judged by.
	Routes Routes
	// Answers say how the API answers each class of failure it answers
	// itself; hang, drop_after_commit and reset are the same on every API
	// and need none.
	Answers Answers
	// Revoked is how the API answers any request once the account's
	// credentials are gone (a deleted token or webservice user).
	Revoked Answer
	// Latency is the emulator's own latency, which Clear leaves in place.
	Latency time.Duration
	// Clear, when set, removes whatever else the emulator keeps for faults
	// besides the middleware's rules (held requests, agent faults); Clear
	// of the hooks calls it after clearing the middleware.
	Clear func()
	// Stage puts machine id into situation (one of Situations, checked
	// before it is called) and returns the raw status word the API now
	// reports. It returns an error wrapping errors.ErrUnsupported for a
	// situation the API cannot show, and a plain one for an id it does not
	// know; errors gain the emulator's name here. Nil: no situation can be
	// shown.
	Stage func(id, situation string) (raw string, err error)
}

// Routes name, for each op the suite aims faults at, the request that op is
// judged by: for Delete the delete request itself, not the read before it.
// OpAny, every request, needs none. An op left out is an error when a
// fault is aimed at it.
type Routes struct{ Get, List, Create, Delete, Power, Update Route }

func (r Routes) of(op string) (_ Route, known bool) {
	route, known := map[string]Route{OpGet: r.Get, OpList: r.List, OpCreate: r.Create, OpDelete: r.Delete,
		OpPower: r.Power, OpUpdate: r.Update, OpAny: {Method: "*", Path: "*"}}[op]
	return route, known
}

// Answers are the API's own answers for the classes it answers itself.
// Each needs one, an Answer or Cannot(why): a class left out is an error
// when it is asked for, so a forgotten class fails a case instead of
// skipping it.
type Answers struct {
	// ServerError: the API's own internal error (a 5xx).
	ServerError Answer
	// RateLimited: a refusal for the rate limit that says when to come
	// back, in the headers or the body the API really uses.
	RateLimited Answer
	// AuthRefused: the credentials or the call refused (401/403).
	AuthRefused Answer
	// Locked: the machine is busy with another task.
	Locked Answer
	// PartialListing: the listing's pages after the first fail; the answer
	// needs a PageSize.
	PartialListing Answer
}

func (a Answers) of(class string) (Answer, bool) {
	got, ok := map[string]Answer{ClassServerError: a.ServerError, ClassRateLimited: a.RateLimited,
		ClassAuthRefused: a.AuthRefused, ClassLocked: a.Locked, ClassPartialListing: a.PartialListing}[class]
	return got, ok
}

// Answer is how an API answers one class of failure: an error status with
// its code, message and headers, rendered by the middleware's ErrorBody in
// the API's own shape.
type Answer struct {
	Status        int
	Code, Message string
	// Headers, when set, are made each time the fault is, so a value that
	// depends on the time (a rate limit's reset) is fresh.
	Headers func() map[string]string
	// Only, when set, lists the ops the API shows this answer on (OpGet,
	// OpPower, …); for any other op FailNext is unsupported, for the reason
	// Why, in which "{op}" stands for the op.
	Only []string
	Why  string
	// Elsewhere aims the answer at another request than the op's own route
	// for the ops whose route it sets: the direct read fails this way while
	// the listing Get starts from never does.
	Elsewhere Routes
	// PageSize, for partial_listing: the listing is cut into pages of this
	// many machines (through the middleware's MaxPageSize, which the API's
	// listing must read) and every page after the first fails with Status.
	PageSize int
	// Unsupported, when set, is why the API cannot fail this way at all:
	// FailNext wraps errors.ErrUnsupported with it.
	Unsupported string
}

// Cannot is the answer of a class the API cannot show, for the reason
// why, in the API's own terms.
func Cannot(why string) Answer { return Answer{Unsupported: why} }

// Hooks implements conformance.Faults for one emulator. Every fault is a
// rule of the emulator's faults middleware; the hooks keep only the request
// counts at the first fault since Clear, to say which routes were requested
// while a fault waited for its own (Unconsumed).
type Hooks struct {
	m *faults.Middleware
	t Table

	mu sync.Mutex
	// since are the middleware's request counts when the first fault since
	// Clear was set; nil while none is.
	since map[string]int
}

// New returns the hooks of the API m wraps, as t describes it.
func New(m *faults.Middleware, t Table) *Hooks { return &Hooks{m: m, t: t} }

// FailNext fails the next n requests of op (every one until Clear when
// n <= 0) the way the API fails for class.
func (h *Hooks) FailNext(op, class string, n int) error {
	r, err := h.Rule(op, class, n)
	if err != nil {
		return err
	}
	// A route no pattern of the API matches (a typo in the table) is
	// refused here, where it is made, rather than found never consumed.
	// The hint names where the route comes from, and what the API was
	// asked so far, since inside go test there is no control API to ask.
	if err := h.m.CheckRoute(r); err != nil {
		return h.errorf("%s: %v; the route is the hooks table's (Table.Routes, as hooks.Resource spells it) and must match a pattern of the emulator's mux (routes requested so far: %s)",
			op, err, routesSince(h.m.Stats(), nil))
	}
	if class == ClassPartialListing {
		h.m.SetMaxPageSize(h.t.Answers.PartialListing.PageSize)
	}
	return h.add(r)
}

// add adds r, noting the request counts if it is the first fault since
// Clear.
func (h *Hooks) add(r faults.Rule) error {
	h.mu.Lock()
	if h.since == nil {
		h.since = h.m.Stats()
	}
	h.mu.Unlock()
	return h.m.AddRule(r)
}

// Unconsumed reports the faults set since Clear that no request has met:
// each is aimed at a route the client never requested (the table's route
// is not the one the client uses, or the client sent nothing), so whatever
// the client did under it proves nothing of how it meets that fault. The
// error names each such route and the routes requested since the first
// fault was set.
func (h *Hooks) Unconsumed() error {
	unmet := h.m.Unmet()
	if len(unmet) == 0 {
		return nil
	}
	aimed := make([]string, len(unmet))
	for i, r := range unmet {
		aimed[i] = r.Method + " " + r.Path
	}
	what := "the fault aimed at %s was never consumed: the adapter made no such request (routes it made: %s)"
	if len(aimed) > 1 {
		what = "the faults aimed at %s were never consumed: the adapter made no such requests (routes it made: %s)"
	}
	return h.errorf(what, strings.Join(aimed, " and "), h.madeSince())
}

// madeSince lists the routes requested since the first fault was set, with
// how many times each, or "none".
func (h *Hooks) madeSince() string {
	h.mu.Lock()
	since := h.since
	h.mu.Unlock()
	return routesSince(h.m.Stats(), since)
}

// routesSince lists the routes of stats requested more often than since
// counts, with how many times more each, or "none".
func routesSince(stats, since map[string]int) string {
	var made []string
	for route, n := range stats {
		if d := n - since[route]; d > 0 {
			made = append(made, fmt.Sprintf("%s (%d)", route, d))
		}
	}
	if len(made) == 0 {
		return "none"
	}
	slices.Sort(made)
	return strings.Join(made, ", ")
}

// Rule is the faults rule FailNext would add for op, class and n, without
// adding it, for a test that aims the API's answer elsewhere.
func (h *Hooks) Rule(op, class string, n int) (faults.Rule, error) {
	route, known := h.t.Routes.of(op)
	switch {
	case !known:
		return faults.Rule{}, h.errorf("no conformance op %q", op)
	case route == (Route{}):
		return faults.Rule{}, h.errorf("the table has no route for %s", op)
	}
	r := faults.Rule{Method: route.Method, Path: route.Path, Count: max(n, 0)}
	switch class {
	case ClassHang:
		// Held until the client leaves, then never run: nothing commits.
		r.DelayIfConnected = faults.Duration(24 * time.Hour)
		return r, nil
	case ClassDropAfterCommit:
		r.Drop = true
		return r, nil
	case ClassReset:
		r.Reset = true
		return r, nil
	}
	a, ok := h.t.Answers.of(class)
	switch {
	case !ok:
		return faults.Rule{}, h.errorf("no conformance fault class %q", class)
	case a.Status == 0 && a.Unsupported == "":
		return faults.Rule{}, h.errorf("the table has no answer for %s; give one, or Cannot(why)", class)
	case a.Unsupported != "":
		return faults.Rule{}, h.unsupported(a.Unsupported)
	case class == ClassPartialListing && op != OpList:
		return faults.Rule{}, h.errorf("partial_listing is a fault of list, not of %s", op)
	case class == ClassPartialListing && a.PageSize <= 0:
		return faults.Rule{}, h.errorf("partial_listing needs a page size to cut the listing into")
	case len(a.Only) > 0 && !slices.Contains(a.Only, op):
		return faults.Rule{}, h.unsupported(strings.ReplaceAll(a.Why, "{op}", op))
	}
	if to, _ := a.Elsewhere.of(op); op != OpAny && to != (Route{}) {
		r.Method, r.Path = to.Method, to.Path
	}
	if class == ClassPartialListing {
		// The first page is answered; every later one fails.
		r.Skip = 1
	}
	r.Status, r.Code, r.Message = a.Status, a.Code, a.Message
	if a.Headers != nil {
		r.Headers = a.Headers()
	}
	return r, nil
}

// Revoke answers every request as the API answers credentials that are
// gone, until Clear.
func (h *Hooks) Revoke() error {
	a := h.t.Revoked
	if a.Unsupported != "" {
		return h.unsupported(a.Unsupported)
	}
	r := faults.Rule{Method: "*", Path: "*", Status: a.Status, Code: a.Code, Message: a.Message}
	if a.Headers != nil {
		r.Headers = a.Headers()
	}
	return h.add(r)
}

// Clear removes every fault, the emulator's own included (Table.Clear);
// the latency the emulator started with stays.
func (h *Hooks) Clear() {
	h.m.Clear()
	h.mu.Lock()
	h.since = nil
	h.mu.Unlock()
	h.m.SetLatency(h.t.Latency)
	if h.t.Clear != nil {
		h.t.Clear()
	}
}

// Stage puts machine id into situation behind the client's back and
// returns the raw status word the API now reports.
func (h *Hooks) Stage(id, situation string) (string, error) {
	if !slices.Contains(Situations, situation) {
		return "", h.errorf("no conformance situation %q", situation)
	}
	if h.t.Stage == nil {
		return "", h.unsupported("it stages no situation")
	}
	raw, err := h.t.Stage(id, situation)
	switch {
	case err != nil:
		return "", fmt.Errorf("%s emulator: stage %s %s: %w", h.t.Emulator, id, situation, err)
	case raw == "":
		// The suite compares the word with the machine's raw state: an
		// empty one would prove nothing.
		return "", h.errorf("stage %s %s reported no status word", id, situation)
	}
	return raw, nil
}

// Requests counts the API requests served so far.
func (h *Hooks) Requests() int {
	total := 0
	for _, n := range h.m.Stats() {
		total += n
	}
	return total
}

func (h *Hooks) errorf(format string, args ...any) error {
	return fmt.Errorf("%s emulator: %s", h.t.Emulator, fmt.Sprintf(format, args...))
}

func (h *Hooks) unsupported(why string) error {
	return fmt.Errorf("%s emulator: %s: %w", h.t.Emulator, why, errors.ErrUnsupported)
}
