package hcloud

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
)

// Conformance is the emulator seen through the adapter conformance suite's
// fault hooks (conformance.Faults): each contract call's own request, each
// class of failure and each in-between status in this API's terms. Its
// vocabulary is the suite's, spelt out here as strings because the emulator
// never imports the adapters; an unknown word is an error, so a mismatch
// fails the suite instead of skipping a case.
type Conformance struct{ e *Emulator }

// Conformance returns the emulator's conformance hooks.
func (e *Emulator) Conformance() Conformance { return Conformance{e: e} }

// conformanceRoutes names the request each contract call is judged by: Delete and Power
// read the server first, and a fault on that read would prove only what a
// fault on Get proves.
var conformanceRoutes = map[string]faults.Target{
	"get":    {Method: "GET", Path: "/servers/{id}"},
	"list":   {Method: "GET", Path: "/servers"},
	"create": {Method: "POST", Path: "/servers"},
	"delete": {Method: "DELETE", Path: "/servers/{id}"},
	"power":  {Method: "POST", Path: "/servers/{id}/actions/*"},
	"update": {Method: "PUT", Path: "/servers/{id}"},
	"any":    {Method: "*", Path: "*"},
}

// FailNext fails the next n requests of op (every one until Clear when n <=
// 0) the way the API fails for class.
func (c Conformance) FailNext(op, class string, n int) error {
	r, err := faults.ConformanceRule("hcloud", conformanceRoutes, op, class, n, func(r *faults.Rule) error {
		switch class {
		case "server_error":
			r.Status, r.Code = http.StatusInternalServerError, "server_error"
		case "rate_limited":
			// The API says when to retry only through its budget headers: an
			// empty budget of 3600 an hour, full again in an hour.
			r.Status, r.Code = http.StatusTooManyRequests, "rate_limit_exceeded"
			r.Headers = map[string]string{
				"RateLimit-Limit": "3600", "RateLimit-Remaining": "0",
				"RateLimit-Reset": strconv.FormatInt(time.Now().Add(time.Hour).Unix(), 10),
			}
		case "auth_refused":
			r.Status, r.Code = http.StatusForbidden, "forbidden"
		case "locked":
			r.Status, r.Code = http.StatusLocked, "locked"
		case "partial_listing":
			if op != "list" {
				return fmt.Errorf("hcloud emulator: partial_listing is a fault of list, not of %s", op)
			}
			// One server a page, and every page after the first fails.
			c.e.SetMaxPageSize(1)
			r.Skip, r.Status, r.Code = 1, http.StatusInternalServerError, "server_error"
		default:
			return fmt.Errorf("hcloud emulator: no conformance fault class %q", class)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return c.e.faults.AddRule(r)
}

// Revoke answers every request as the API answers a deleted token.
func (c Conformance) Revoke() error {
	return c.e.faults.AddRule(faults.Rule{Method: "*", Path: "*", Status: http.StatusUnauthorized, Code: "unauthorized", Message: "unable to authenticate"})
}

// Clear removes every fault; the latency the emulator started with stays.
func (c Conformance) Clear() {
	c.e.faults.Clear()
	c.e.faults.SetLatency(c.e.opts.Latency)
}

// Stage sets server id's status, and for unaddressed takes its addresses
// away, and returns the status word the API now reports.
func (c Conformance) Stage(id, situation string) (string, error) {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return "", fmt.Errorf("hcloud emulator: %q is not a server id", id)
	}
	status := map[string]string{
		"provisioning": "initializing",
		"unaddressed":  "running",
		"stopping":     "stopping",
		"deleting":     "deleting",
		// No status the API documents: a word an adapter cannot know.
		"unrecognised": "hibernating",
	}[situation]
	if status == "" {
		return "", fmt.Errorf("hcloud emulator: no conformance situation %q", situation)
	}
	c.e.mu.Lock()
	defer c.e.mu.Unlock()
	s, ok := c.e.servers[n]
	if !ok {
		return "", fmt.Errorf("hcloud emulator: no server %d to stage", n)
	}
	s.status = status
	if situation == "unaddressed" {
		if s.ipv4 != nil {
			c.e.addrs.releaseV4(s.ipv4.addr)
		}
		s.ipv4, s.ipv6 = nil, nil
	}
	return status, nil
}

// Requests counts the API requests served so far.
func (c Conformance) Requests() int {
	total := 0
	for _, n := range c.e.faults.Stats() {
		total += n
	}
	return total
}
