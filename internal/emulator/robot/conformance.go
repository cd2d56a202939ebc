package robot

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/hooks"
)

// Conformance returns the emulator's conformance hooks (conformance.Faults)
// in Robot's terms; what Robot cannot show is unsupported, so the case is
// skipped, never passed.
func (e *Emulator) Conformance() *hooks.Hooks {
	return hooks.New(e.faults, hooks.Table{
		Emulator: "robot",
		// Robot keeps a claim in the server name, so create (claim), update
		// and delete (release) each write it with POST /server/{n}; power is
		// a reset. A delete that cancels the rental (cancel_on_destroy) sends
		// POST /server/{n}/cancellation instead, so delete's route is both.
		Routes: hooks.Routes{
			Get:    hooks.Route{Method: "GET", Path: "/server/{id}"},
			List:   hooks.Route{Method: "GET", Path: "/server"},
			Create: hooks.Route{Method: "POST", Path: "/server/{id}"},
			Delete: hooks.Route{Method: "POST", Path: "/server/{id}*"},
			Update: hooks.Route{Method: "POST", Path: "/server/{id}"},
			Power:  hooks.Route{Method: "POST", Path: "/reset/{id}"},
		},
		Answers: hooks.Answers{
			ServerError: hooks.Answer{Status: http.StatusInternalServerError, Code: codeInternalError},
			// Robot says when to come back only through the budget in the
			// body: max_request requests per interval seconds.
			RateLimited: hooks.Answer{Status: http.StatusForbidden, Code: codeRateLimitExceeded, Message: "rate limit exceeded"},
			AuthRefused: hooks.Answer{Status: http.StatusUnauthorized, Code: codeUnauthorized, Message: "Unable to authenticate"},
			// Robot locks nothing but a server under a technician's manual
			// reset, and says so only to a reset.
			Locked: hooks.Answer{Status: http.StatusConflict, Code: codeResetManualActive, Message: "a manual reset is under way",
				Only: []string{hooks.OpPower}, Why: "Robot shows no lock on {op}"},
			PartialListing: hooks.Cannot("GET /server answers every server at once, it has no pages to lose"),
		},
		Revoked: hooks.Answer{Status: http.StatusUnauthorized, Code: codeUnauthorized, Message: "Unable to authenticate"},
		Latency: e.opts.Latency,
		Stage:   e.stage,
	})
}

// stage puts server id into situation and returns the status word GET
// /server/{n} now reports. Robot has no power states and always reports
// an address, so stopping and unaddressed are unsupported. A server being
// deleted is a cancelled one, still listed until its date: its status
// stays "ready" beside cancelled: true, and the word returned is
// "cancelled", which an adapter's raw state must then show.
func (e *Emulator) stage(id, situation string) (string, error) {
	n, err := strconv.Atoi(id)
	if err != nil {
		return "", fmt.Errorf("%q is not a server number", id)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	s, ok := e.servers[n]
	if !ok {
		return "", fmt.Errorf("no server %d to stage", n)
	}
	switch situation {
	case "provisioning":
		s.status = statusInProcess
		return s.status, nil
	case "deleting":
		s.cancelled = true
		s.cancellationDate = e.now().AddDate(0, 1, 0).Format(time.DateOnly)
		s.goneAt = time.Time{}
		return "cancelled", nil
	case "unrecognised":
		// No status Robot documents: a word an adapter cannot know.
		s.status = "hibernating"
		return s.status, nil
	}
	return "", fmt.Errorf("the webservice cannot show a server %s: %w", situation, errors.ErrUnsupported)
}
