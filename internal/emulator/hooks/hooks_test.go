package hooks_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/hooks"
)

// toy is the smallest API the hooks serve: machines 1 to 3, a listing that
// pages by the middleware's MaxPageSize, and a stage that knows machine 1.
type toy struct {
	m       *faults.Middleware
	cleared int
	staged  map[string]string
}

func newToy(t *testing.T) (*toy, *hooks.Hooks) {
	t.Helper()
	y := &toy{staged: map[string]string{}}
	y.m = faults.New(http.HandlerFunc(y.serve), faults.Config{})
	y.m.SetLatency(time.Millisecond)
	return y, hooks.New(y.m, y.table())
}

func (y *toy) table() hooks.Table {
	return hooks.Table{
		Emulator: "toy",
		Routes: hooks.Routes{
			Get: hooks.Route{Method: "GET", Path: "/machines/{id}"}, List: hooks.Route{Method: "GET", Path: "/machines"},
			Create: hooks.Route{Method: "POST", Path: "/machines"}, Delete: hooks.Route{Method: "DELETE", Path: "/machines/{id}"},
			Power: hooks.Route{Method: "POST", Path: "/machines/{id}/power/*"}, Update: hooks.Route{Method: "PATCH", Path: "/machines/{id}"},
		},
		Answers: hooks.Answers{
			ServerError: hooks.Answer{Status: 500, Code: "internal", Message: "oops"},
			RateLimited: hooks.Answer{Status: 429, Code: "slow_down", Headers: func() map[string]string {
				return map[string]string{"Retry-After": strconv.Itoa(time.Now().Nanosecond())}
			}},
			AuthRefused: hooks.Answer{Status: 403, Code: "forbidden"},
			Locked: hooks.Answer{Status: 409, Code: "busy", Only: []string{hooks.OpPower, hooks.OpGet}, Why: "the toy locks nothing but {op}",
				Elsewhere: hooks.Routes{Get: hooks.Route{Method: "GET", Path: "/machines/{id}/status"}}},
			PartialListing: hooks.Answer{Status: 503, Code: "unavailable", PageSize: 1},
		},
		Revoked: hooks.Answer{Status: 401, Code: "unauthorized", Message: "who are you"},
		Latency: time.Millisecond,
		Clear:   func() { y.cleared++ },
		Stage: func(id, situation string) (string, error) {
			switch {
			case id != "1":
				return "", fmt.Errorf("no machine %s", id)
			case situation == "stopping":
				return "", fmt.Errorf("the toy cannot stop: %w", errors.ErrUnsupported)
			case situation == "unaddressed":
				return "", nil
			}
			y.staged[id] = situation
			return "toy-" + situation, nil
		},
	}
}

func (y *toy) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/machines" {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		per := 3
		if n := y.m.MaxPageSize(); n > 0 {
			per = n
		}
		_, _ = fmt.Fprintf(w, `{"page":%d,"per_page":%d}`, page, per)
		return
	}
	_, _ = w.Write([]byte(`{"ok":true}`))
}

func (y *toy) call(method, path string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	y.m.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
	return rec
}

// TestRefusesUnknownWords: a word the hooks do not know, a class the table
// forgot and a stage without a status word are plain errors, never a
// fault quietly not made and never a skip.
func TestRefusesUnknownWords(t *testing.T) {
	y, h := newToy(t)
	forgetful := y.table()
	forgetful.Answers.Locked = hooks.Answer{}
	forgetful.Routes.Update = hooks.Route{}
	f := hooks.New(y.m, forgetful)
	for want, err := range map[string]error{
		`toy emulator: no conformance op "reboot"`:                     h.FailNext("reboot", "server_error", 1),
		"toy emulator: the table has no route for update":              f.FailNext("update", "hang", 1),
		`toy emulator: no conformance fault class "meltdown"`:          h.FailNext("get", "meltdown", 1),
		"toy emulator: the table has no answer for locked":             f.FailNext("get", "locked", 1),
		"toy emulator: partial_listing is a fault of list, not of get": h.FailNext("get", "partial_listing", 1),
		`toy emulator: no conformance situation "dreaming"`:            second(h.Stage("1", "dreaming")),
		"toy emulator: stage 9 deleting: no machine 9":                 second(h.Stage("9", "deleting")),
		"toy emulator: stage 1 unaddressed reported no status word":    second(h.Stage("1", "unaddressed")),
	} {
		if err == nil || errors.Is(err, errors.ErrUnsupported) || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%v, want a plain error starting %q", err, want)
		}
	}
	if rules := y.m.Rules(); len(rules) != 0 {
		t.Errorf("refused hooks left rules %+v", rules)
	}
	if len(y.staged) != 0 {
		t.Errorf("an unknown situation reached the emulator: %v", y.staged)
	}
}

// TestUnsupportedSaysWhy: what the API cannot show wraps ErrUnsupported, in
// the words the fault matrix prints after "toy emulator: ".
func TestUnsupportedSaysWhy(t *testing.T) {
	y, h := newToy(t)
	cannot := y.table()
	cannot.Answers.RateLimited = hooks.Cannot("the toy has no rate limits")
	cannot.Answers.PartialListing = hooks.Cannot("the toy lists at once")
	cannot.Revoked = hooks.Cannot("the toy has no credentials")
	c := hooks.New(y.m, cannot)
	for want, err := range map[string]error{
		"toy emulator: the toy has no rate limits: unsupported operation":            c.FailNext("get", "rate_limited", 1),
		"toy emulator: the toy lists at once: unsupported operation":                 c.FailNext("list", "partial_listing", 1),
		"toy emulator: the toy locks nothing but delete: unsupported operation":      h.FailNext("delete", "locked", 1),
		"toy emulator: the toy has no credentials: unsupported operation":            c.Revoke(),
		"toy emulator: stage 1 stopping: the toy cannot stop: unsupported operation": second(h.Stage("1", "stopping")),
		"toy emulator: it stages no situation: unsupported operation":                second(hooks.New(y.m, hooks.Table{Emulator: "toy"}).Stage("1", "deleting")),
	} {
		if !errors.Is(err, errors.ErrUnsupported) || err.Error() != want {
			t.Errorf("%v, want %q wrapping ErrUnsupported", err, want)
		}
	}
	if rules := y.m.Rules(); len(rules) != 0 {
		t.Errorf("unsupported hooks left rules %+v", rules)
	}
}

// TestRulesAsTheTableSays: every class becomes the rule its words promise,
// aimed at the op's route or the answer's own.
func TestRulesAsTheTableSays(t *testing.T) {
	_, h := newToy(t)
	for _, c := range []struct {
		op, class string
		n         int
		want      faults.Rule
	}{
		{"get", "hang", 2, faults.Rule{Method: "GET", Path: "/machines/{id}", Count: 2, DelayIfConnected: faults.Duration(24 * time.Hour)}},
		{"create", "drop_after_commit", 0, faults.Rule{Method: "POST", Path: "/machines", Drop: true}},
		{"update", "reset", -3, faults.Rule{Method: "PATCH", Path: "/machines/{id}", Reset: true}},
		{"any", "server_error", 1, faults.Rule{Method: "*", Path: "*", Count: 1, Status: 500, Code: "internal", Message: "oops"}},
		{"delete", "auth_refused", 1, faults.Rule{Method: "DELETE", Path: "/machines/{id}", Count: 1, Status: 403, Code: "forbidden"}},
		{"power", "locked", 1, faults.Rule{Method: "POST", Path: "/machines/{id}/power/*", Count: 1, Status: 409, Code: "busy"}},
		{"get", "locked", 1, faults.Rule{Method: "GET", Path: "/machines/{id}/status", Count: 1, Status: 409, Code: "busy"}},
		{"list", "partial_listing", 0, faults.Rule{Method: "GET", Path: "/machines", Skip: 1, Status: 503, Code: "unavailable"}},
	} {
		got, err := h.Rule(c.op, c.class, c.n)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("Rule(%s, %s, %d) = %+v, %v; want %+v", c.op, c.class, c.n, got, err, c.want)
		}
	}
	first, _ := h.Rule("get", "rate_limited", 1)
	again, _ := h.Rule("get", "rate_limited", 1)
	if first.Status != 429 || first.Headers["Retry-After"] == "" || first.Headers["Retry-After"] == again.Headers["Retry-After"] {
		t.Errorf("a rate limit's headers are not made with each fault: %v then %v", first.Headers, again.Headers)
	}
}

// TestServedThroughTheMiddleware: a fault meets its own call only and for
// its count, a partial listing answers the first page and fails the next,
// Revoke refuses everything, Clear restores all but the latency, and
// Requests counts what was served.
func TestServedThroughTheMiddleware(t *testing.T) {
	y, h := newToy(t)
	if err := h.FailNext("get", "server_error", 1); err != nil {
		t.Fatal(err)
	}
	if rec := y.call("GET", "/machines"); rec.Code != 200 {
		t.Errorf("a fault of get failed the listing: %d", rec.Code)
	}
	if rec := y.call("GET", "/machines/2"); rec.Code != 500 || !strings.Contains(rec.Body.String(), `"internal"`) {
		t.Errorf("get under server_error: %d %s", rec.Code, rec.Body)
	}
	if rec := y.call("GET", "/machines/2"); rec.Code != 200 {
		t.Errorf("the fault outlived its count: %d", rec.Code)
	}
	if err := h.FailNext("list", "partial_listing", 0); err != nil {
		t.Fatal(err)
	}
	if rec := y.call("GET", "/machines?page=1"); rec.Code != 200 || !strings.Contains(rec.Body.String(), `"per_page":1`) {
		t.Errorf("first page of a partial listing: %d %s", rec.Code, rec.Body)
	}
	if rec := y.call("GET", "/machines?page=2"); rec.Code != 503 {
		t.Errorf("second page of a partial listing: %d", rec.Code)
	}
	if err := h.Revoke(); err != nil {
		t.Fatal(err)
	}
	h.Clear()
	if err := h.Revoke(); err != nil {
		t.Fatal(err)
	}
	if rec := y.call("POST", "/machines/1/power/on"); rec.Code != 401 || !strings.Contains(rec.Body.String(), "who are you") {
		t.Errorf("a call with revoked credentials: %d %s", rec.Code, rec.Body)
	}
	before := h.Requests()
	h.Clear()
	if rec := y.call("GET", "/machines"); rec.Code != 200 || !strings.Contains(rec.Body.String(), `"per_page":3`) {
		t.Errorf("after Clear: %d %s", rec.Code, rec.Body)
	}
	if got := h.Requests() - before; got != 1 {
		t.Errorf("Requests counted %d for one call", got)
	}
	if s := y.m.State(); len(s.Rules) != 0 || s.Latency != faults.Duration(time.Millisecond) || y.cleared != 2 {
		t.Errorf("after Clear: rules %v, latency %v (want the emulator's 1ms), emulator's own clear ran %d times (want 2)", s.Rules, s.Latency.Std(), y.cleared)
	}
	if raw, err := h.Stage("1", "deleting"); err != nil || raw != "toy-deleting" || y.staged["1"] != "deleting" {
		t.Errorf("Stage: %q %v, emulator saw %v", raw, err, y.staged)
	}
}

func second(_ string, err error) error { return err }
