package faults

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// Settings is the body of POST /_emulator/faults: rules are appended to
// the ones in force; latency, rate_limit and max_page_size replace the
// current values when present. A bare JSON array is read as a list of
// rules.
type Settings struct {
	Rules []Rule `json:"rules,omitempty"`
	// Latency is a delay_if_connected in front of every request (see
	// Middleware.SetLatency); 0 turns it off.
	Latency   *Duration  `json:"latency,omitempty"`
	RateLimit *RateLimit `json:"rate_limit,omitempty"`
	// MaxPageSize lowers the largest page a list answers with, so a client
	// has to follow pages; 0 restores the API's own maximum.
	MaxPageSize *int `json:"max_page_size,omitempty"`
}

// RateLimit is a request budget: Limit requests per Window. A Limit of 0
// removes the budget.
type RateLimit struct {
	Limit  int      `json:"limit"`
	Window Duration `json:"window"`
}

// State is what GET /_emulator/faults reports.
type State struct {
	Rules     []Rule     `json:"rules"`
	Latency   Duration   `json:"latency"`
	RateLimit *RateLimit `json:"rate_limit"`
	// MaxPageSize is 0 while lists use the API's own maximum.
	MaxPageSize int `json:"max_page_size"`
}

// Apply validates every rule first and then applies s as a whole, so a bad
// rule leaves the settings untouched.
func (m *Middleware) Apply(s Settings) error {
	for _, r := range s.Rules {
		if err := r.validate(); err != nil {
			return err
		}
		if err := m.CheckRoute(r); err != nil {
			return err
		}
	}
	if s.Latency != nil && *s.Latency < 0 {
		return fmt.Errorf("latency %s: want a positive duration, or 0 to turn it off", s.Latency.Std())
	}
	if s.MaxPageSize != nil && *s.MaxPageSize < 0 {
		return fmt.Errorf("max_page_size %d: want a positive page size, or 0 for the API's own maximum", *s.MaxPageSize)
	}
	for _, r := range s.Rules {
		if err := m.AddRule(r); err != nil {
			return err
		}
	}
	if s.Latency != nil {
		m.SetLatency(s.Latency.Std())
	}
	if s.RateLimit != nil {
		m.SetRateLimit(s.RateLimit.Limit, s.RateLimit.Window.Std())
	}
	if s.MaxPageSize != nil {
		m.SetMaxPageSize(*s.MaxPageSize)
	}
	return nil
}

// State reports the rules, latency and budget in force.
func (m *Middleware) State() State {
	rules := m.Rules()
	m.mu.Lock()
	defer m.mu.Unlock()
	st := State{Rules: rules, Latency: Duration(m.latency), MaxPageSize: m.maxPageSize}
	if m.budget != nil {
		st.RateLimit = &RateLimit{Limit: m.budget.limit, Window: Duration(m.budget.window)}
	}
	return st
}

// serveControl answers the control API. Its routes are neither counted nor
// subject to faults, so a test can always read and reset the emulator.
func (m *Middleware) serveControl(w http.ResponseWriter, r *http.Request) {
	switch route := strings.TrimPrefix(r.URL.Path, m.cfg.ControlPrefix); r.Method + " " + route {
	case "GET /stats":
		WriteJSON(w, http.StatusOK, m.Stats())
	case "DELETE /stats":
		m.Reset()
		w.WriteHeader(http.StatusNoContent)
	case "GET /faults":
		WriteJSON(w, http.StatusOK, m.State())
	case "POST /faults":
		s, err := readSettings(r.Body)
		if err == nil {
			err = m.Apply(s)
		}
		if err != nil {
			WriteJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
			return
		}
		WriteJSON(w, http.StatusOK, m.State())
	case "DELETE /faults":
		m.Clear()
		w.WriteHeader(http.StatusNoContent)
	default:
		if h, ok := m.cfg.Control[r.Method+" "+route]; ok {
			h.ServeHTTP(w, r)
			return
		}
		have := fmt.Sprintf("GET|DELETE %[1]s/stats, GET|POST|DELETE %[1]s/faults", m.cfg.ControlPrefix)
		for _, k := range slices.Sorted(maps.Keys(m.cfg.Control)) {
			method, route, _ := strings.Cut(k, " ")
			have += fmt.Sprintf(", %s %s%s", method, m.cfg.ControlPrefix, route)
		}
		WriteJSON(w, http.StatusNotFound, map[string]string{
			"error": fmt.Sprintf("no control route %s %s; have %s", r.Method, r.URL.Path, have),
		})
	}
}

func readSettings(body io.Reader) (Settings, error) {
	raw, err := io.ReadAll(io.LimitReader(body, 1<<20))
	if err != nil {
		return Settings{}, err
	}
	raw = bytes.TrimSpace(raw)
	var s Settings
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if len(raw) > 0 && raw[0] == '[' {
		err = dec.Decode(&s.Rules)
	} else {
		err = dec.Decode(&s)
	}
	if err != nil {
		if strings.Contains(err.Error(), `unknown field "latency`) {
			// Rules once had latency and latency_after, which did not say
			// what a write does when its client leaves.
			return Settings{}, fmt.Errorf("reading fault settings: %w; a rule delays with delay_if_connected, delay_then_commit or commit_then_delay", err)
		}
		return Settings{}, fmt.Errorf("reading fault settings: %w", err)
	}
	return s, nil
}

// CheckRoute refuses a rule whose path can match no route of the API, when
// the API says which paths it routes (Config.Routed). A prefix such as
// /servers/* passes when the API routes the prefix itself or a path below
// it. The control API checks every rule so; AddRule, for the emulator's own
// tests, leaves it to the caller.
func (m *Middleware) CheckRoute(r Rule) error {
	if m.cfg.Routed == nil {
		return nil
	}
	// Rules match paths with or without the API's prefix.
	p := r.Path
	if rest, ok := strings.CutPrefix(p, m.cfg.APIPrefix+"/"); ok && m.cfg.APIPrefix != "" {
		p = "/" + rest
	}
	if p == "" || p == "*" {
		return nil
	}
	candidates := []string{p}
	if prefix, ok := strings.CutSuffix(p, "*"); ok {
		candidates = []string{prefix, strings.TrimSuffix(prefix, "/"), prefix + "1", prefix + "/1"}
	}
	methods := []string{r.Method}
	if r.Method == "" || r.Method == "*" {
		methods = []string{http.MethodGet, http.MethodPost, http.MethodPut, http.MethodDelete}
	}
	for _, method := range methods {
		for _, c := range candidates {
			if c != "" && m.cfg.Routed(strings.ToUpper(method), m.cfg.APIPrefix+c) {
				return nil
			}
		}
	}
	return fmt.Errorf("rule %s %s: the path matches no route of the API, so the rule would never fire; check its spelling (GET %s/stats shows the routes called so far)",
		r.Method, r.Path, m.cfg.ControlPrefix)
}

// MuxRouted is Config.Routed for an API served by mux: whether mux has a
// pattern for method and path. A route template such as /servers/{id}
// is routed as the path it spells.
func MuxRouted(mux *http.ServeMux) func(method, path string) bool {
	return func(method, path string) bool {
		_, pattern := mux.Handler(&http.Request{Method: method, URL: &url.URL{Path: path}, Host: "emulator"})
		return pattern != ""
	}
}
