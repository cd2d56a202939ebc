package hcloud

import (
	"cmp"
	"fmt"
	"net/http"
	"slices"
	"time"
)

// action is an asynchronous task on a server. It runs until it has been
// polled Options.ActionPolls times (or Options.ActionDuration has passed)
// and then ends in success or, when scripted by FailNextAction, in error.
// Polls are deterministic, so tests need no sleeps: reading the action, or
// the server it acts on, counts as one poll.
type action struct {
	id       int64
	command  string
	status   string // running, success, error
	progress int
	started  time.Time
	finished time.Time
	serverID int64
	polls    int
	// after holds the action back until that one has finished, so
	// start_server never succeeds before create_server.
	after *action
	// fail, when set, is the error the action ends with.
	fail *wireActionError
	// onSuccess and onFailure are the server statuses the action leaves;
	// empty keeps the status.
	onSuccess, onFailure string
	// restarts counts a restart of the guest when the action succeeds.
	restarts bool
	// boots marks an action that boots the guest when it succeeds (a
	// restart, or a start of a server that was off), which runs the rescue
	// system if it is armed; rescue is what the action does to it.
	boots  bool
	rescue rescueEffect
	// rescueKeys are the SSH keys an enable_rescue arms rescue with.
	rescueKeys []int64
}

type actionFault struct {
	command   string
	left      int
	code, msg string
}

// FailNextAction makes the next n actions with this command ("create_server",
// "start_server", "stop_server", "shutdown_server", "reboot_server",
// "reset_server", "delete_server", "enable_rescue", "disable_rescue") end
// in status error with code and message, as the API reports a task that
// failed after it was accepted.
func (e *Emulator) FailNextAction(command string, n int, code, message string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if code == "" {
		code = "action_failed"
	}
	if message == "" {
		message = "Action failed"
	}
	e.actionFaults = append(e.actionFaults, actionFault{command: command, left: max(n, 1), code: code, msg: message})
}

// startActionLocked records a running action on s.
func (e *Emulator) startActionLocked(s *server, command string, now time.Time) *action {
	a := &action{id: e.nextIDLocked("action"), command: command, status: "running", started: now, serverID: s.id}
	for i, f := range e.actionFaults {
		if f.command == command {
			a.fail = &wireActionError{Code: f.code, Message: f.msg}
			if e.actionFaults[i].left--; e.actionFaults[i].left == 0 {
				e.actionFaults = slices.Delete(e.actionFaults, i, i+1)
			}
			break
		}
	}
	e.actions[a.id] = a
	e.running = append(e.running, a)
	s.busy++
	return a
}

// advanceLocked moves running actions on. Those that observe selects count
// this request as one poll; in duration mode the clock alone decides. It
// runs at the start of every API call, so time-based actions finish
// whatever the client reads.
func (e *Emulator) advanceLocked(now time.Time, observe func(*action) bool) {
	if observe != nil {
		for _, a := range e.running {
			if !observe(a) {
				continue
			}
			a.polls++
			// Waiting only for start_server must still move the
			// create_server it waits for, as the real one finishes anyway.
			if b := a.after; b != nil && b.status == "running" && !observe(b) {
				b.polls++
			}
		}
	}
	still := e.running[:0]
	for _, a := range e.running {
		if e.dueLocked(a, now) {
			if b := a.after; b != nil && b.status == "error" && a.fail == nil {
				// start_server cannot start what create_server failed to make.
				a.fail = &wireActionError{Code: "action_failed", Message: fmt.Sprintf("action %d it depends on failed", b.id)}
			}
			e.finishLocked(a, now)
			continue
		}
		a.progress = e.progress(a, now)
		still = append(still, a)
	}
	clear(e.running[len(still):])
	e.running = still
}

func (e *Emulator) dueLocked(a *action, now time.Time) bool {
	if a.after != nil && a.after.status == "running" {
		return false
	}
	if e.opts.ActionDuration > 0 {
		return now.Sub(a.started) >= e.opts.ActionDuration
	}
	return e.opts.ActionPolls < 0 || a.polls >= e.opts.ActionPolls
}

func (e *Emulator) progress(a *action, now time.Time) int {
	var p int
	if e.opts.ActionDuration > 0 {
		p = int(100 * now.Sub(a.started) / e.opts.ActionDuration)
	} else if e.opts.ActionPolls > 0 {
		p = 100 * a.polls / e.opts.ActionPolls
	}
	return min(max(p, 0), 99)
}

// finishLocked ends a and applies its effect on the server.
func (e *Emulator) finishLocked(a *action, now time.Time) {
	a.finished = now
	s := e.servers[a.serverID]
	if s != nil {
		s.busy--
	}
	if a.fail != nil {
		a.status = "error"
		if s != nil && a.command == "delete_server" {
			s.deleting = nil
		}
		if s != nil && a.onFailure != "" && (s.deleting == nil || a.command == "delete_server") {
			s.status = a.onFailure
		}
		return
	}
	a.status, a.progress = "success", 100
	if e.opts.OffBeforeStart {
		// The actions queued behind this one begin now: polls and time
		// before do not count towards them.
		for _, b := range e.running {
			if b.after == a && b.status == "running" {
				b.started, b.polls = now, 0
			}
		}
	}
	if s == nil {
		return
	}
	if a.command == "delete_server" {
		e.removeServerLocked(s)
		return
	}
	// A server being deleted keeps saying so, whatever finishes meanwhile.
	if s.deleting == nil && a.onSuccess != "" {
		s.status = a.onSuccess
	}
	if a.restarts && s.deleting == nil {
		s.restarts++
	}
	if s.deleting == nil {
		e.rescueLocked(s, a)
		if a.onSuccess == "off" {
			s.inRescue, s.bootReads = false, 0
		}
	}
}

func (a *action) wire() wireAction {
	w := wireAction{
		ID: a.id, Command: a.command, Status: a.status, Progress: a.progress,
		Started:   a.started.UTC().Format(time.RFC3339),
		Resources: []wireActionResource{{ID: a.serverID, Type: "server"}},
	}
	if a.status != "running" {
		f := a.finished.UTC().Format(time.RFC3339)
		w.Finished = &f
	}
	if a.status == "error" {
		w.Error = a.fail
	}
	return w
}

var actionSortKeys = sortKeys[*action]{
	"id":       func(a, b *action) int { return cmp.Compare(a.id, b.id) },
	"command":  func(a, b *action) int { return cmp.Compare(a.command, b.command) },
	"status":   func(a, b *action) int { return cmp.Compare(a.status, b.status) },
	"started":  func(a, b *action) int { return a.started.Compare(b.started) },
	"finished": func(a, b *action) int { return a.finished.Compare(b.finished) },
}

var actionStatuses = []string{"running", "success", "error"}

// actionsListRemoval announced the end of listing all actions.
const actionsListRemoval = "https://docs.hetzner.cloud/changelog#2025-01-30-listing-arbitrary-actions-in-the-actions-list-endpoint-is-removed"

// listActions serves GET /actions, which since 2025 requires id filters
// and has no pagination; hcloud-go's WaitFor polls through it.
func (e *Emulator) listActions(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	ids, err := queryIDs(q["id"])
	if err != nil {
		writeError(w, err)
		return
	}
	if len(ids) == 0 {
		// Listing every action was removed on 30 January 2025; the API
		// answers with the removal, not with a missing field.
		writeError(w, &apiError{status: http.StatusGone, code: "deprecated_api_endpoint",
			message: "listing actions without an id filter was removed from the API; pass id",
			details: map[string]any{"announcement": actionsListRemoval}})
		return
	}
	if err := checkEnum("status", q["status"], actionStatuses); err != nil {
		writeError(w, err)
		return
	}
	order, err := parseSort(q["sort"], actionSortKeys)
	if err != nil {
		writeError(w, err)
		return
	}
	e.mu.Lock()
	e.advanceLocked(time.Now(), func(a *action) bool { return slices.Contains(ids, a.id) })
	var found []*action
	for _, id := range ids {
		if a, ok := e.actions[id]; ok && !slices.Contains(found, a) && (len(q["status"]) == 0 || slices.Contains(q["status"], a.status)) {
			found = append(found, a)
		}
	}
	slices.SortStableFunc(found, order)
	out := make([]wireAction, len(found))
	for i, a := range found {
		out[i] = a.wire()
	}
	e.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]any{"actions": out})
}

func (e *Emulator) getAction(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(r, "id")
	e.mu.Lock()
	e.advanceLocked(time.Now(), func(a *action) bool { return a.id == id })
	a, found := e.actions[id]
	var out wireAction
	if found {
		out = a.wire()
	}
	e.mu.Unlock()
	if !ok || !found {
		writeError(w, notFound("action", id))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"action": out})
}

// serverSubresource tells apart two routes the mux cannot: /servers/{id}/actions
// and /servers/actions/{id} both match /servers/actions/actions.
func (e *Emulator) serverSubresource(w http.ResponseWriter, r *http.Request) {
	switch first, second := r.PathValue("first"), r.PathValue("second"); {
	case first == "actions":
		r.SetPathValue("id", second)
		e.getAction(w, r)
	case second == "actions":
		r.SetPathValue("id", first)
		e.listServerActions(w, r)
	default:
		writeError(w, &apiError{status: http.StatusNotFound, code: "not_found", message: "no API route " + r.URL.Path})
	}
}

// listServerActions serves GET /servers/{id}/actions (hcloud-go's
// Server.Action.ListFor).
func (e *Emulator) listServerActions(w http.ResponseWriter, r *http.Request) {
	id, ok := pathID(r, "id")
	e.listActionsPaged(w, r, func(a *action) bool { return a.serverID == id }, func() *apiError {
		if _, exists := e.servers[id]; !ok || !exists {
			return notFound("server", id)
		}
		return nil
	})
}

// listAllServerActions serves GET /servers/actions (hcloud-go's
// Server.Action.List), optionally filtered by id.
func (e *Emulator) listAllServerActions(w http.ResponseWriter, r *http.Request) {
	ids, err := queryIDs(r.URL.Query()["id"])
	if err != nil {
		writeError(w, err)
		return
	}
	e.listActionsPaged(w, r, func(a *action) bool { return len(ids) == 0 || slices.Contains(ids, a.id) }, nil)
}

// listActionsPaged lists the actions that pick selects, with the status
// filter, sorting and pagination of the API's action lists. Listing counts
// as a poll of each selected action.
func (e *Emulator) listActionsPaged(w http.ResponseWriter, r *http.Request, pick func(*action) bool, check func() *apiError) {
	q := r.URL.Query()
	l, err := readListing(q, e.pageSize(), actionStatuses, actionSortKeys, false)
	if err != nil {
		writeError(w, err)
		return
	}
	e.mu.Lock()
	e.advanceLocked(time.Now(), pick)
	if check != nil {
		if err := check(); err != nil {
			e.mu.Unlock()
			writeError(w, err)
			return
		}
	}
	var found []*action
	for _, a := range e.actions {
		if pick(a) && (len(q["status"]) == 0 || slices.Contains(q["status"], a.status)) {
			found = append(found, a)
		}
	}
	out, meta := wirePage(found, l, (*action).wire)
	e.mu.Unlock()
	writePage(w, r, "actions", out, meta)
}

func (e *Emulator) getServerAction(w http.ResponseWriter, r *http.Request) {
	id, _ := pathID(r, "id")
	actionID, _ := pathID(r, "action_id")
	e.mu.Lock()
	e.advanceLocked(time.Now(), func(a *action) bool { return a.id == actionID })
	a, found := e.actions[actionID]
	var out wireAction
	if found && a.serverID == id {
		out = a.wire()
	}
	e.mu.Unlock()
	if !found || a.serverID != id {
		writeError(w, notFound("action", actionID))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"action": out})
}
