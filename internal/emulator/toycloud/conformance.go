package toycloud

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/hooks"
)

// Conformance returns the emulator's conformance hooks (conformance.Faults),
// made by the shared hooks from this API's routes, answers and statuses.
func (e *Emulator) Conformance() *hooks.Hooks {
	return hooks.New(e.Middleware, hooks.Table{
		Emulator: "toycloud",
		Routes: hooks.Routes{
			Get:    hooks.Route{Method: "GET", Path: "/servers/{id}"},
			List:   hooks.Route{Method: "GET", Path: "/servers"},
			Create: hooks.Route{Method: "POST", Path: "/servers"},
			Delete: hooks.Route{Method: "DELETE", Path: "/servers/{id}"},
			Power:  hooks.Route{Method: "POST", Path: "/servers/{id}/power"},
			Update: hooks.Route{Method: "PATCH", Path: "/servers/{id}"},
		},
		Answers: hooks.Answers{
			ServerError: hooks.Answer{Status: http.StatusInternalServerError, Code: "server_error"},
			RateLimited: hooks.Answer{Status: http.StatusTooManyRequests, Code: "rate_limited",
				Headers: func() map[string]string { return map[string]string{"Retry-After": "30"} }},
			AuthRefused: hooks.Answer{Status: http.StatusForbidden, Code: "forbidden"},
			Locked:      hooks.Answer{Status: http.StatusLocked, Code: "locked"},
			// One server a page, and every page after the first fails.
			PartialListing: hooks.Answer{Status: http.StatusInternalServerError, Code: "server_error", PageSize: 1},
		},
		Revoked: hooks.Answer{Status: http.StatusUnauthorized, Code: "unauthorized", Message: "the token is not valid"},
		Latency: e.opts.Latency,
		Stage:   e.stage,
	})
}

// stage puts server id into situation and returns its status word; the
// API never documents "hibernating".
func (e *Emulator) stage(id, situation string) (string, error) {
	n, err := strconv.Atoi(id)
	if err != nil {
		return "", fmt.Errorf("%q is not a server id", id)
	}
	status := map[string]string{"provisioning": "provisioning", "unaddressed": "running",
		"stopping": "stopping", "deleting": "deleting", "unrecognised": "hibernating"}[situation]
	e.mu.Lock()
	defer e.mu.Unlock()
	s := e.servers[n]
	if s == nil {
		return "", fmt.Errorf("no server %d to stage", n)
	}
	s.Status, s.settle = status, ""
	if situation == "unaddressed" {
		s.IPv4 = ""
	}
	return status, nil
}
