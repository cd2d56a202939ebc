package hcloud

import (
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/hooks"
)

// Conformance returns the emulator's conformance hooks (conformance.Faults):
// each contract call's own request, each class of failure and each
// in-between status in this API's terms.
func (e *Emulator) Conformance() *hooks.Hooks {
	return hooks.New(e.faults, hooks.Table{
		Emulator: "hcloud",
		// Delete and Power read the server first, and a fault on that read
		// would prove only what a fault on Get proves.
		Routes: hooks.Routes{
			Get:    hooks.Route{Method: "GET", Path: "/servers/{id}"},
			List:   hooks.Route{Method: "GET", Path: "/servers"},
			Create: hooks.Route{Method: "POST", Path: "/servers"},
			Delete: hooks.Route{Method: "DELETE", Path: "/servers/{id}"},
			Power:  hooks.Route{Method: "POST", Path: "/servers/{id}/actions/*"},
			Update: hooks.Route{Method: "PUT", Path: "/servers/{id}"},
		},
		Answers: hooks.Answers{
			ServerError: hooks.Answer{Status: http.StatusInternalServerError, Code: "server_error"},
			// The API says when to retry only through its budget headers: an
			// empty budget of 3600 an hour, full again in an hour.
			RateLimited: hooks.Answer{Status: http.StatusTooManyRequests, Code: "rate_limit_exceeded", Headers: func() map[string]string {
				return map[string]string{
					"RateLimit-Limit": "3600", "RateLimit-Remaining": "0",
					"RateLimit-Reset": strconv.FormatInt(time.Now().Add(time.Hour).Unix(), 10),
				}
			}},
			AuthRefused: hooks.Answer{Status: http.StatusForbidden, Code: "forbidden"},
			Locked:      hooks.Answer{Status: http.StatusLocked, Code: "locked"},
			// One server a page, and every page after the first fails.
			PartialListing: hooks.Answer{Status: http.StatusInternalServerError, Code: "server_error", PageSize: 1},
		},
		Revoked: hooks.Answer{Status: http.StatusUnauthorized, Code: "unauthorized", Message: "unable to authenticate"},
		Latency: e.opts.Latency,
		Stage:   e.stage,
	})
}

// stage sets server id's status, and for unaddressed takes its addresses
// away, and returns the status word the API now reports.
func (e *Emulator) stage(id, situation string) (string, error) {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil {
		return "", fmt.Errorf("%q is not a server id", id)
	}
	status := map[string]string{
		"provisioning": "initializing",
		"unaddressed":  "running",
		"stopping":     "stopping",
		"deleting":     "deleting",
		// No status the API documents: a word an adapter cannot know.
		"unrecognised": "hibernating",
	}[situation]
	e.mu.Lock()
	defer e.mu.Unlock()
	s, ok := e.servers[n]
	if !ok {
		return "", fmt.Errorf("no server %d to stage", n)
	}
	s.status = status
	if situation == "unaddressed" {
		if s.ipv4 != nil {
			e.addrs.releaseV4(s.ipv4.addr)
		}
		s.ipv4, s.ipv6 = nil, nil
	}
	return status, nil
}
