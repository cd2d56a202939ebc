// Package faults is the HTTP middleware every emulator wraps around its API:
// it counts requests by route, injects scripted failures, dropped responses,
// a rate-limit budget, a global latency and three delays named for what a
// write does when its client leaves early (delay_if_connected,
// delay_then_commit, commit_then_delay), and serves the JSON control API
// under /_emulator; beside it, what every JSON API writes alike (reply.go: an
// answer, an error in the scripted errors' body, a page of a listing). It uses
// the standard library only and knows nothing about a particular API beyond
// the error-body function each emulator passes in, so every emulator can
// share it.
package faults

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"maps"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ErrorBodyFunc renders an error in the emulated API's own JSON shape, so a
// scripted failure looks to the vendor's client exactly like a real one.
type ErrorBodyFunc func(status int, code, message string) []byte

// Config describes the API a Middleware wraps.
type Config struct {
	// APIPrefix is removed from request paths before they are counted and
	// matched against rules, e.g. "/v1", so routes read "GET /servers/{id}".
	APIPrefix string
	// ControlPrefix is where the control API is served; "/_emulator" if empty.
	ControlPrefix string
	// ErrorBody renders scripted errors; a generic
	// {"error":{"code":..,"message":..}} if nil.
	ErrorBody ErrorBodyFunc
	// RateLimitCode is the error code of a 429 once the budget is spent;
	// "rate_limit_exceeded" if empty.
	RateLimitCode string
	// Codes renames the generic error codes (DefaultCode's words, the
	// fleet's not_found and invalid_input, rate_limit_exceeded) to the
	// API's own, {"not_found": "server_not_found"}: every error body
	// WriteError writes, the scripted faults' and the API's own alike,
	// carries the renamed code, so an API with codes of its own says them
	// in this one place. A code it does not name is written as given.
	Codes map[string]string
	// Now is the clock of the rate-limit budget; time.Now if nil.
	Now func() time.Time
	// Route names a request path's route for counting and rule matching;
	// Route (numeric segments become {id}) if nil. An API whose ids are not
	// numbers (Robot's key fingerprints, product ids) names its own.
	Route func(path string) string
	// Control adds the wrapped API's own control routes, keyed "METHOD
	// /route" below ControlPrefix (e.g. "POST /actions"), for settings only
	// that API knows of. Like the middleware's own, they are neither counted
	// nor faulted.
	Control map[string]http.Handler
	// Routed reports whether the wrapped API has a route for method and a
	// request path (APIPrefix included). When set, the control API refuses
	// a rule whose path matches no route, a typo that would never fire.
	Routed func(method, path string) bool
}

// Middleware is an http.Handler that wraps an emulator. It is safe for
// concurrent use.
type Middleware struct {
	next http.Handler
	cfg  Config

	mu      sync.Mutex
	stats   map[string]int
	rules   []*activeRule
	latency time.Duration
	budget  *budget
	// maxPageSize is read by the wrapped API; 0 means its own maximum.
	maxPageSize int
}

// New wraps next.
func New(next http.Handler, cfg Config) *Middleware {
	if cfg.ControlPrefix == "" {
		cfg.ControlPrefix = "/_emulator"
	}
	if cfg.ErrorBody == nil {
		cfg.ErrorBody = genericErrorBody
	}
	if cfg.RateLimitCode == "" {
		cfg.RateLimitCode = "rate_limit_exceeded"
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Route == nil {
		cfg.Route = Route
	}
	return &Middleware{next: next, cfg: cfg, stats: map[string]int{}}
}

func genericErrorBody(status int, code, message string) []byte {
	return fmt.Appendf(nil, `{"error":{"code":%q,"message":%q}}`, code, message)
}

// Stats returns a copy of the request counts, keyed "METHOD /route".
func (m *Middleware) Stats() map[string]int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return maps.Clone(m.stats)
}

// Reset sets all request counts back to zero.
func (m *Middleware) Reset() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.stats = map[string]int{}
}

// Clear removes every rule, the global latency, the rate-limit budget and
// the page size limit.
func (m *Middleware) Clear() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.rules = nil
	m.latency = 0
	m.budget = nil
	m.maxPageSize = 0
}

// SetLatency delays every API request by d (0 turns it off). The global
// latency is a delay_if_connected in front of every request: a request
// whose client gives up while it waits never reaches the API, so a write
// does not commit. A rule's delay_then_commit takes the global latency
// into its own delay, so a request it matches runs whatever its client
// does.
func (m *Middleware) SetLatency(d time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.latency = max(d, 0)
}

// SetMaxPageSize asks the wrapped API to answer lists in pages of at most
// n entries, so a test can make a client follow pages without creating
// hundreds of objects; n <= 0 restores the API's own maximum. The
// middleware only keeps the value: the API reads it through MaxPageSize.
func (m *Middleware) SetMaxPageSize(n int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.maxPageSize = max(n, 0)
}

// MaxPageSize returns the page size limit, 0 for none.
func (m *Middleware) MaxPageSize() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.maxPageSize
}

// FailNext answers the next n calls of method on route with status and code.
func (m *Middleware) FailNext(method, route string, n, status int, code string) error {
	return m.AddRule(Rule{Method: method, Path: route, Count: max(n, 1), Status: status, Code: code})
}

// DropNext lets the next n calls of method on route reach the API, so their
// effect is committed, and then closes the connection without a response.
// Go's http.Transport silently resends a GET (or HEAD, OPTIONS) whose
// reused connection closed unanswered, so to make a Go client see a dropped
// GET, drop two.
func (m *Middleware) DropNext(method, route string, n int) error {
	return m.AddRule(Rule{Method: method, Path: route, Count: max(n, 1), Drop: true})
}

// ResetNext closes the connection of the next n calls of method on route
// without running them and without an answer. Like a dropped GET, a GET
// whose reused connection was reset is resent by Go's http.Transport, so
// reset two to make a Go client see it.
func (m *Middleware) ResetNext(method, route string, n int) error {
	return m.AddRule(Rule{Method: method, Path: route, Count: max(n, 1), Reset: true})
}

// DelayIfConnectedNext holds the next n calls of method on route for d and
// runs each only if its client is still connected: a client that gives up
// first leaves nothing committed.
func (m *Middleware) DelayIfConnectedNext(method, route string, n int, d time.Duration) error {
	return m.AddRule(Rule{Method: method, Path: route, Count: max(n, 1), DelayIfConnected: Duration(d)})
}

// DelayThenCommitNext takes the next n calls of method on route in, holds
// each for d and then runs it whether or not its client is still
// connected, as a real API that received the request would: a client
// whose timeout is shorter gives up on a call that takes effect after it
// left. The handler waits the whole d, so keep d short.
func (m *Middleware) DelayThenCommitNext(method, route string, n int, d time.Duration) error {
	return m.AddRule(Rule{Method: method, Path: route, Count: max(n, 1), DelayThenCommit: Duration(d)})
}

// CommitThenDelayNext lets the next n calls of method on route reach the
// API at once, so their effect is committed, and holds each answer back
// for d. A client whose timeout is shorter than d gives up on a call that
// took effect; hcloud-go retries such a timeout, even for a POST.
func (m *Middleware) CommitThenDelayNext(method, route string, n int, d time.Duration) error {
	return m.AddRule(Rule{Method: method, Path: route, Count: max(n, 1), CommitThenDelay: Duration(d)})
}

// ServeHTTP counts the request, applies the rate-limit budget, the latency
// and the first matching rule, then hands it to the wrapped API.
func (m *Middleware) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if strings.HasPrefix(r.URL.Path, m.cfg.ControlPrefix+"/") || r.URL.Path == m.cfg.ControlPrefix {
		m.serveControl(w, r)
		return
	}
	raw := strings.TrimPrefix(r.URL.Path, m.cfg.APIPrefix)
	if raw == "" {
		raw = "/"
	}
	route := m.cfg.Route(raw)
	now := m.cfg.Now()

	m.mu.Lock()
	m.stats[r.Method+" "+route]++
	limited, headers := m.takeBudgetLocked(now)
	var rule *Rule
	if !limited {
		rule = m.matchLocked(r.Method, raw, route)
	}
	latency := m.latency
	m.mu.Unlock()

	for k, v := range headers {
		w.Header().Set(k, v)
	}
	delay, ifConnected := latency, true
	if rule != nil {
		switch {
		case rule.DelayIfConnected > 0:
			delay += rule.DelayIfConnected.Std()
		case rule.DelayThenCommit > 0:
			delay += rule.DelayThenCommit.Std()
			ifConnected = false
		}
	}
	if ifConnected {
		var whole bool
		if r, whole = takeBody(r, delay); !whole || !wait(r.Context(), delay) {
			// The client has gone: it gets no answer at all.
			abandon(w, r)
			return
		}
	} else {
		r = holdRequest(r, delay)
	}
	switch {
	case limited:
		m.WriteError(w, http.StatusTooManyRequests, m.cfg.RateLimitCode, "rate limit exceeded")
	case rule != nil && rule.Drop:
		dropAfter(m.next, w, r)
	case rule != nil && rule.Reset:
		resetConn(w)
	case rule != nil && rule.CommitThenDelay > 0:
		answerLate(m.next, w, r, rule.CommitThenDelay.Std())
	case rule != nil && rule.Status != 0:
		for k, v := range rule.Headers {
			w.Header().Set(k, v)
		}
		m.WriteError(w, rule.Status, rule.Code, rule.Message)
	default:
		m.next.ServeHTTP(w, r)
	}
}

// takeBody reads r's whole body into memory before a delay d that ends with
// its client, and hands the rest of the chain a copy. Go's server watches
// the connection for a client that has gone only once the handler has read
// the body to its end, so until then r.Context() stays live however long ago
// the client left, and a held POST or PUT would be served after all. whole
// is false when the body could not be read: its client has gone mid-way.
func takeBody(r *http.Request, d time.Duration) (_ *http.Request, whole bool) {
	if d <= 0 || r.Body == nil || r.Body == http.NoBody {
		return r, true
	}
	body, err := io.ReadAll(r.Body)
	_ = r.Body.Close()
	r.Body = io.NopCloser(bytes.NewReader(body))
	return r, err == nil
}

// wait sleeps for d unless ctx ends first; it reports whether the full
// delay passed. No delay always passes: without one, a request is served
// as the server received it, whatever its client has done since.
func wait(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return false
	case <-t.C:
		return true
	}
}

// Route turns a request path into its route: every segment made only of
// digits becomes {id}, so "/servers/42/actions/7" reads
// "/servers/{id}/actions/{id}".
func Route(path string) string {
	segs := strings.Split(path, "/")
	for i, s := range segs {
		if s == "" {
			continue
		}
		if _, err := strconv.ParseUint(s, 10, 64); err == nil {
			segs[i] = "{id}"
		}
	}
	return strings.Join(segs, "/")
}
