package toycloud

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
)

// Conformance is the emulator seen through the conformance suite's fault
// hooks (conformance.Faults), in the suite's words spelt as strings, since
// emulators never import adapters. faults.ConformanceRule does the part
// every emulator shares; a ready-made implementation configured with the
// two tables below is meant to replace the rest of this file.
type Conformance struct{ e *Emulator }

// Conformance returns the emulator's conformance hooks.
func (e *Emulator) Conformance() Conformance { return Conformance{e: e} }

var conformanceRoutes = map[string]faults.Target{
	"get": {Method: "GET", Path: "/servers/{id}"}, "list": {Method: "GET", Path: "/servers"},
	"create": {Method: "POST", Path: "/servers"}, "delete": {Method: "DELETE", Path: "/servers/{id}"},
	"power": {Method: "POST", Path: "/servers/{id}/power"}, "update": {Method: "PATCH", Path: "/servers/{id}"},
	"any": {Method: "*", Path: "*"},
}

// conformanceAnswers are the API's own answers; partial_listing is one
// server a page and a failed second page.
var conformanceAnswers = map[string]faults.Rule{
	"server_error":    {Status: http.StatusInternalServerError, Code: "server_error"},
	"rate_limited":    {Status: http.StatusTooManyRequests, Code: "rate_limited", Headers: map[string]string{"Retry-After": "30"}},
	"auth_refused":    {Status: http.StatusForbidden, Code: "forbidden"},
	"locked":          {Status: http.StatusLocked, Code: "locked"},
	"partial_listing": {Skip: 1, Status: http.StatusInternalServerError, Code: "server_error"},
}

// FailNext fails the next n requests of op the way the API fails for class.
func (c Conformance) FailNext(op, class string, n int) error {
	r, err := faults.ConformanceRule("toycloud", conformanceRoutes, op, class, n, func(r *faults.Rule) error {
		a, ok := conformanceAnswers[class]
		if !ok || class == "partial_listing" && op != "list" {
			return fmt.Errorf("toycloud emulator: no conformance fault class %q for %s", class, op)
		}
		if class == "partial_listing" {
			c.e.SetMaxPageSize(1)
		}
		r.Skip, r.Status, r.Code, r.Headers = a.Skip, a.Status, a.Code, a.Headers
		return nil
	})
	if err != nil {
		return err
	}
	return c.e.AddRule(r)
}

// Revoke answers every request as the API answers a deleted token.
func (c Conformance) Revoke() error {
	return c.e.AddRule(faults.Rule{Status: http.StatusUnauthorized, Code: "unauthorized", Message: "the token is not valid"})
}

// Clear removes every fault; the latency the emulator started with stays.
func (c Conformance) Clear() {
	c.e.Middleware.Clear()
	c.e.SetLatency(c.e.opts.Latency)
}

// conformanceStatus is each situation's status word; the API never
// documents "hibernating".
var conformanceStatus = map[string]string{"provisioning": "provisioning", "unaddressed": "running",
	"stopping": "stopping", "deleting": "deleting", "unrecognised": "hibernating"}

// Stage puts server id into situation and returns its status word.
func (c Conformance) Stage(id, situation string) (string, error) {
	n, _ := strconv.Atoi(id)
	c.e.mu.Lock()
	defer c.e.mu.Unlock()
	s, status := c.e.servers[n], conformanceStatus[situation]
	if s == nil || status == "" {
		return "", fmt.Errorf("toycloud emulator: cannot stage server %q as %q", id, situation)
	}
	s.Status, s.settle = status, ""
	if situation == "unaddressed" {
		s.IPv4 = ""
	}
	return status, nil
}

// Requests counts the API requests served so far.
func (c Conformance) Requests() int {
	total := 0
	for _, n := range c.e.Stats() {
		total += n
	}
	return total
}
