package hcloud

import (
	"net/http"
	"time"
)

// powerCommand describes one of the server power actions the API offers:
// the action's command name, the status while it runs and the status it
// leaves behind.
type powerCommand struct {
	command string
	during  string // empty keeps the current status while running
	after   string
}

var powerCommands = map[string]powerCommand{
	"poweron":  {command: "start_server", during: "starting", after: "running"},
	"poweroff": {command: "stop_server", during: "stopping", after: "off"},
	"shutdown": {command: "shutdown_server", during: "stopping", after: "off"},
	"reboot":   {command: "reboot_server", after: "running"},
	"reset":    {command: "reset_server", after: "running"},
}

// serverAction serves POST /servers/{id}/actions/{command} for the power
// actions. A server with a running action is locked, as in the API.
func (e *Emulator) serverAction(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("command")
	pc, known := powerCommands[name]
	e.mu.Lock()
	defer e.mu.Unlock()
	s, err := e.lookupServerLocked(r)
	if err != nil {
		writeError(w, err)
		return
	}
	if !known {
		writeError(w, &apiError{status: http.StatusNotFound, code: "not_found", message: "server action " + name + " is not emulated"})
		return
	}
	if s.busy > 0 {
		writeError(w, locked("server", s.id))
		return
	}
	now := time.Now()
	a := e.startActionLocked(s, pc.command, now)
	a.onSuccess, a.onFailure = pc.after, s.status
	if pc.during != "" {
		s.status = pc.during
	}
	e.advanceLocked(now, nil)
	writeJSON(w, http.StatusCreated, map[string]any{"action": a.wire()})
}
