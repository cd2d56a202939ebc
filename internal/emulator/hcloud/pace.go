package hcloud

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
)

// ActionPace is how long actions run: what GET /_emulator/actions answers,
// and, with fields left out kept as they are, the body POST takes. It lets a
// running emulator make creates, power switches and deletes slow, so a user
// sees what a long wait looks like (the provider's INFO lines) without
// restarting it.
type ActionPace struct {
	// Polls is Options.ActionPolls: how many polls finish an action.
	Polls int `json:"polls"`
	// Duration is Options.ActionDuration: when positive, actions finish
	// after this much wall time instead, whatever is polled.
	Duration faults.Duration `json:"duration"`
}

// ActionPace reports the pace in force.
func (e *Emulator) ActionPace() ActionPace {
	e.mu.Lock()
	defer e.mu.Unlock()
	return ActionPace{Polls: e.opts.ActionPolls, Duration: faults.Duration(e.opts.ActionDuration)}
}

// SetActionPace sets how long actions run, those already running included:
// a duration and a poll count both count from each action's start. Polls
// of 0 mean 1, as in Options; a negative duration is refused.
func (e *Emulator) SetActionPace(p ActionPace) error {
	if p.Duration < 0 {
		return fmt.Errorf("duration %s: want 0 (actions end after polls) or a positive duration such as \"10s\"", p.Duration.Std())
	}
	if p.Polls == 0 {
		p.Polls = 1
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.opts.ActionPolls, e.opts.ActionDuration = p.Polls, p.Duration.Std()
	return nil
}

// paceControl is the emulator's own control routes, served beside the
// faults' under /_emulator: GET, POST and DELETE /actions. DELETE goes back
// to the pace the emulator was started with.
func (e *Emulator) paceControl() map[string]http.Handler {
	initial := ActionPace{Polls: e.opts.ActionPolls, Duration: faults.Duration(e.opts.ActionDuration)}
	answer := func(w http.ResponseWriter) { writeJSON(w, http.StatusOK, e.ActionPace()) }
	return map[string]http.Handler{
		"GET /actions": http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { answer(w) }),
		"POST /actions": http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			p, err := readPace(r.Body, e.ActionPace())
			if err == nil {
				err = e.SetActionPace(p)
			}
			if err != nil {
				writeJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
				return
			}
			answer(w)
		}),
		"DELETE /actions": http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			_ = e.SetActionPace(initial)
			w.WriteHeader(http.StatusNoContent)
		}),
	}
}

// readPace reads a POST body onto the current pace: a field left out keeps
// its value, an unknown one is refused, so a typo does not pass unnoticed.
func readPace(body io.Reader, current ActionPace) (ActionPace, error) {
	var in struct {
		Polls    *int             `json:"polls"`
		Duration *faults.Duration `json:"duration"`
	}
	dec := json.NewDecoder(io.LimitReader(body, 1<<16))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return current, fmt.Errorf("reading the action pace: %w; send {\"duration\": \"10s\"} or {\"polls\": 3}", err)
	}
	if in.Polls != nil {
		current.Polls = *in.Polls
	}
	if in.Duration != nil {
		current.Duration = *in.Duration
	}
	return current, nil
}
