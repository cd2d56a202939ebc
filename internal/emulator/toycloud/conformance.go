package toycloud

import (
	"fmt"
	"strconv"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/hooks"
)

// Conformance returns the emulator's conformance hooks (conformance.Faults):
// the API is in the plainest REST shape, so the shared hooks' plain table
// is its table.
func (e *Emulator) Conformance() *hooks.Hooks {
	return hooks.New(e.Middleware, hooks.Table{Emulator: "toycloud", Routes: hooks.Resource("/servers", "/power"),
		Answers: hooks.PlainAnswers(), Revoked: hooks.PlainRevoked(), Latency: e.opts.Latency, Stage: e.stage})
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
