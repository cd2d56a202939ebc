package faults

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Rule scripts a failure. A rule matches a request when Method and Path
// match; the first matching rule with calls left is applied and used up.
type Rule struct {
	// Method matches case-insensitively; empty or "*" matches any method.
	Method string `json:"method,omitempty"`
	// Path is compared with the request's route ("/servers/{id}") and with
	// its path ("/servers/42"), both without the API prefix (a leading API
	// prefix in Path is ignored). A trailing "*" makes it a prefix match:
	// "/servers/{id}/actions/*". Empty or "*" matches every path.
	Path string `json:"path,omitempty"`
	// Count is how many of the next matching calls the rule applies to;
	// 0 means every matching call until the rules are cleared.
	Count int `json:"count,omitempty"`
	// Skip lets this many matching calls through untouched before the rule
	// applies, so a test can fail the second page of a listing and not its
	// first (a partial listing), or the call after a look-up.
	Skip int `json:"skip,omitempty"`
	// Status and Code answer the call with an error in the API's shape.
	Status  int    `json:"status,omitempty"`
	Code    string `json:"code,omitempty"`
	Message string `json:"message,omitempty"`
	// Headers go with a Status answer, as the API sends them: a rate
	// limit's RateLimit-* headers, from which clients read when to retry.
	Headers map[string]string `json:"headers,omitempty"`
	// Drop runs the real handler, so a write is committed, and then closes
	// the connection without an answer: the client cannot tell whether its
	// call took effect.
	Drop bool `json:"drop,omitempty"`
	// Reset closes the connection as soon as the request is in, without
	// running the handler and without a byte of answer, as a proxy or a
	// load balancer that resets the connection does: nothing is committed,
	// but the client cannot know that.
	Reset bool `json:"reset,omitempty"`
	// The three delays say what happens to a call whose client gives up
	// while it waits; a rule sets at most one of them.
	//
	// DelayIfConnected holds the call this long (on top of the global
	// latency) and runs it only if its client is still connected: a write
	// whose client gave up first never commits. It may come with a status
	// or drop, which then follow the delay.
	DelayIfConnected Duration `json:"delay_if_connected,omitempty"`
	// DelayThenCommit takes the request in at once, holds it this long (the
	// global latency included) and then runs it whether or not its client
	// is still connected, as a real API that already received the request
	// would: a write commits even though nobody reads the answer. It may
	// come with drop; not with a status, which answers without running the
	// API and so has nothing to commit.
	DelayThenCommit Duration `json:"delay_then_commit,omitempty"`
	// CommitThenDelay runs the call at once, so a write is committed, and
	// holds its answer back this long: a client whose timeout is shorter
	// gives up on a call that took effect. It excludes status and drop.
	CommitThenDelay Duration `json:"commit_then_delay,omitempty"`
}

type activeRule struct {
	Rule
	// left counts the remaining calls; negative means unlimited.
	left int
	// skip counts the matching calls still let through.
	skip int
	// met counts the requests the rule matched, skipped ones included.
	met int
}

func (r Rule) validate() error {
	delays := 0
	for _, d := range []Duration{r.DelayIfConnected, r.DelayThenCommit, r.CommitThenDelay} {
		if d < 0 {
			return fmt.Errorf("rule %s %s: a delay must be positive", r.Method, r.Path)
		}
		if d > 0 {
			delays++
		}
	}
	switch {
	case r.Status != 0 && r.Drop:
		return fmt.Errorf("rule %s %s: status and drop exclude each other", r.Method, r.Path)
	case r.Reset && (r.Status != 0 || r.Drop || delays > 0):
		return fmt.Errorf("rule %s %s: reset answers nothing and commits nothing; it excludes status, drop and the delays", r.Method, r.Path)
	case r.Status != 0 && (r.Status < 400 || r.Status > 599):
		return fmt.Errorf("rule %s %s: status %d is not an error status", r.Method, r.Path, r.Status)
	case delays > 1:
		return fmt.Errorf("rule %s %s: delay_if_connected, delay_then_commit and commit_then_delay exclude each other; set one", r.Method, r.Path)
	case r.CommitThenDelay > 0 && (r.Status != 0 || r.Drop):
		return fmt.Errorf("rule %s %s: commit_then_delay excludes status and drop", r.Method, r.Path)
	case r.DelayThenCommit > 0 && r.Status != 0:
		return fmt.Errorf("rule %s %s: a status answers without running the API, so delay_then_commit has nothing to commit; use delay_if_connected with a status", r.Method, r.Path)
	case r.Status == 0 && !r.Drop && !r.Reset && delays == 0:
		return fmt.Errorf("rule %s %s: needs a status, drop, reset, delay_if_connected, delay_then_commit or commit_then_delay", r.Method, r.Path)
	case r.Count < 0:
		return fmt.Errorf("rule %s %s: negative count", r.Method, r.Path)
	case r.Skip < 0:
		return fmt.Errorf("rule %s %s: negative skip", r.Method, r.Path)
	case len(r.Headers) > 0 && r.Status == 0:
		return fmt.Errorf("rule %s %s: headers go with a status; set one", r.Method, r.Path)
	}
	return nil
}

// AddRule appends a rule after the existing ones.
func (m *Middleware) AddRule(r Rule) error {
	if err := r.validate(); err != nil {
		return err
	}
	if r.Code == "" && r.Status != 0 {
		r.Code = DefaultCode(r.Status)
	}
	if r.Message == "" && r.Status != 0 {
		r.Message = "injected failure: " + r.Code
	}
	left := r.Count
	if left == 0 {
		left = -1
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.rules = append(m.rules, &activeRule{Rule: r, left: left, skip: r.Skip})
	return nil
}

// Rules returns the rules still in force, Count holding the calls left
// (0 for unlimited) and Skip the calls still let through.
func (m *Middleware) Rules() []Rule {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]Rule, 0, len(m.rules))
	for _, r := range m.rules {
		c := r.Rule
		c.Count = max(r.left, 0)
		c.Skip = r.skip
		out = append(out, c)
	}
	return out
}

// Unmet returns the rules in force that no request has matched yet, not
// even one let through by Skip: each is aimed at a route nothing has
// requested since it was added. A rule used up is gone, so it is met.
func (m *Middleware) Unmet() []Rule {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []Rule
	for _, r := range m.rules {
		if r.met == 0 {
			out = append(out, r.Rule)
		}
	}
	return out
}

// matchLocked finds, uses up and returns the first rule that matches.
func (m *Middleware) matchLocked(method, raw, route string) *Rule {
	for i, r := range m.rules {
		if !r.matches(m.cfg.APIPrefix, method, raw, route) {
			continue
		}
		r.met++
		if r.skip > 0 {
			r.skip--
			continue
		}
		applied := r.Rule
		if r.left > 0 {
			r.left--
			if r.left == 0 {
				m.rules = slices.Delete(m.rules, i, i+1)
			}
		}
		return &applied
	}
	return nil
}

func (r Rule) matches(apiPrefix, method, raw, route string) bool {
	if r.Method != "" && r.Method != "*" && !strings.EqualFold(r.Method, method) {
		return false
	}
	p := r.Path
	if apiPrefix != "" && strings.HasPrefix(p, apiPrefix+"/") {
		p = strings.TrimPrefix(p, apiPrefix)
	}
	if p == "" || p == "*" {
		return true
	}
	if prefix, ok := strings.CutSuffix(p, "*"); ok {
		return strings.HasPrefix(route, prefix) || strings.HasPrefix(raw, prefix)
	}
	return p == route || p == raw
}

// DefaultCode names a status the way most JSON APIs do; emulators whose
// API spells codes differently rename them in Config.Codes (or pass Code
// explicitly).
func DefaultCode(status int) string {
	switch status {
	case 401:
		return "unauthorized"
	case 403:
		return "forbidden"
	case 404:
		return "not_found"
	case 409:
		return "conflict"
	case 412:
		return "resource_unavailable"
	case 422:
		return "invalid_input"
	case 423:
		return "locked"
	case 429:
		return "rate_limit_exceeded"
	case 500:
		return "server_error"
	case 502:
		return "bad_gateway"
	case 503:
		return "unavailable"
	case 504:
		return "timeout"
	}
	return "unknown_error"
}

// Duration is a time.Duration that reads from JSON as a Go duration string
// ("150ms") or a number of milliseconds, and writes as a string.
type Duration time.Duration

// Std returns d as a time.Duration.
func (d Duration) Std() time.Duration { return time.Duration(d) }

// MarshalJSON writes d as a Go duration string.
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).String())
}

// UnmarshalJSON reads "150ms" or 150 (milliseconds).
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err == nil {
		v, err := time.ParseDuration(s)
		if err != nil {
			return err
		}
		*d = Duration(v)
		return nil
	}
	ms, err := strconv.ParseFloat(string(b), 64)
	if err != nil {
		return fmt.Errorf("duration %s: want a string like \"150ms\" or a number of milliseconds", b)
	}
	*d = Duration(ms * float64(time.Millisecond))
	return nil
}
