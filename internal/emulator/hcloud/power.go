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
	after   string // empty keeps the status the server had
}

var powerCommands = map[string]powerCommand{
	"poweron":  {command: "start_server", during: "starting", after: "running"},
	"poweroff": {command: "stop_server", during: "stopping", after: "off"},
	"shutdown": {command: "shutdown_server", during: "stopping", after: "off"},
	// A reboot is an ACPI request: a server that is off stays off.
	"reboot": {command: "reboot_server"},
	"reset":  {command: "reset_server", after: "running"},
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
	// Powering on a running server (or off one that is off) is accepted
	// and changes nothing, so it never shows starting or stopping.
	if pc.during != "" && s.status != pc.after {
		s.status = pc.during
	}
	e.advanceLocked(now, nil)
	writeJSON(w, http.StatusCreated, map[string]any{"action": a.wire()})
}
