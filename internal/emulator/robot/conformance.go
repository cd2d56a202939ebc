package robot

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
)

// Conformance is the emulator seen through the adapter conformance suite's
// fault hooks (conformance.Faults), in Robot's terms. Its vocabulary is
// the suite's, spelt out as strings because the emulator never imports the
// adapters; an unknown word is an error, and what Robot cannot show is an
// error wrapping errors.ErrUnsupported, so the case is skipped, never
// passed.
type Conformance struct{ e *Emulator }

// Conformance returns the emulator's conformance hooks.
func (e *Emulator) Conformance() Conformance { return Conformance{e: e} }

// conformanceRoutes names the request each contract call is judged by.
// Robot keeps a claim in the server name, so create (claim), update and
// delete (release) each write it with POST /server/{n}; power is a reset.
// A delete that cancels the rental (cancel_on_destroy) sends POST
// /server/{n}/cancellation instead, so delete's route is both.
var conformanceRoutes = map[string]faults.Target{
	"get":    {Method: "GET", Path: "/server/{id}"},
	"list":   {Method: "GET", Path: "/server"},
	"create": {Method: "POST", Path: "/server/{id}"},
	"delete": {Method: "POST", Path: "/server/{id}*"},
	"update": {Method: "POST", Path: "/server/{id}"},
	"power":  {Method: "POST", Path: "/reset/{id}"},
	"any":    {Method: "*", Path: "*"},
}

// FailNext fails the next n requests of op (every one until Clear when
// n <= 0) the way Robot fails for class.
func (c Conformance) FailNext(op, class string, n int) error {
	r, err := faults.ConformanceRule("robot", conformanceRoutes, op, class, n, func(r *faults.Rule) error {
		switch class {
		case "server_error":
			r.Status, r.Code = http.StatusInternalServerError, codeInternalError
		case "rate_limited":
			// Robot says when to come back only through the budget in the
			// body: max_request requests per interval seconds.
			r.Status, r.Code, r.Message = http.StatusForbidden, codeRateLimitExceeded, "rate limit exceeded"
		case "auth_refused":
			r.Status, r.Code, r.Message = http.StatusUnauthorized, codeUnauthorized, "Unable to authenticate"
		case "locked":
			// Robot locks nothing but a server under a technician's manual
			// reset, and says so only to a reset.
			if op != "power" {
				return fmt.Errorf("robot emulator: Robot shows no lock on %s: %w", op, errors.ErrUnsupported)
			}
			r.Status, r.Code, r.Message = http.StatusConflict, codeResetManualActive, "a manual reset is under way"
		case "partial_listing":
			return fmt.Errorf("robot emulator: GET /server answers every server at once, it has no pages to lose: %w", errors.ErrUnsupported)
		default:
			return fmt.Errorf("robot emulator: no conformance fault class %q", class)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return c.e.faults.AddRule(r)
}

// Revoke answers every request as Robot answers a deleted webservice user.
func (c Conformance) Revoke() error {
	return c.e.faults.AddRule(faults.Rule{Method: "*", Path: "*", Status: http.StatusUnauthorized, Code: codeUnauthorized, Message: "Unable to authenticate"})
}

// Clear removes every fault; the latency the emulator started with stays.
func (c Conformance) Clear() {
	c.e.faults.Clear()
	c.e.faults.SetLatency(c.e.opts.Latency)
}

// Stage puts server id into situation and returns the status word GET
// /server/{n} now reports. Robot has no power states and always reports
// an address, so stopping and unaddressed are unsupported. A server being
// deleted is a cancelled one, still listed until its date: its status
// stays "ready" beside cancelled: true, and the word returned is
// "cancelled", which an adapter's raw state must then show.
func (c Conformance) Stage(id, situation string) (string, error) {
	n, err := strconv.Atoi(id)
	if err != nil {
		return "", fmt.Errorf("robot emulator: %q is not a server number", id)
	}
	c.e.mu.Lock()
	defer c.e.mu.Unlock()
	s, ok := c.e.servers[n]
	if !ok {
		return "", fmt.Errorf("robot emulator: no server %d to stage", n)
	}
	switch situation {
	case "provisioning":
		s.status = statusInProcess
		return s.status, nil
	case "deleting":
		s.cancelled = true
		s.cancellationDate = c.e.now().AddDate(0, 1, 0).Format(time.DateOnly)
		s.goneAt = time.Time{}
		return "cancelled", nil
	case "unrecognised":
		// No status Robot documents: a word an adapter cannot know.
		s.status = "hibernating"
		return s.status, nil
	case "unaddressed", "stopping":
		return "", fmt.Errorf("robot emulator: Robot cannot show a server %s: %w", situation, errors.ErrUnsupported)
	}
	return "", fmt.Errorf("robot emulator: no conformance situation %q", situation)
}

// Requests counts the API requests served so far.
func (c Conformance) Requests() int {
	total := 0
	for _, n := range c.e.faults.Stats() {
		total += n
	}
	return total
}
