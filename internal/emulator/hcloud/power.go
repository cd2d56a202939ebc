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
	// acpi marks a request to the guest, which a guest that ignores ACPI
	// does not act on; the action succeeds all the same, as the API's
	// status only says that the request was sent.
	acpi bool
	// restarts marks an action that restarts a running guest.
	restarts bool
}

var powerCommands = map[string]powerCommand{
	"poweron":  {command: "start_server", during: "starting", after: "running"},
	"poweroff": {command: "stop_server", during: "stopping", after: "off"},
	"shutdown": {command: "shutdown_server", during: "stopping", after: "off", acpi: true},
	// A reboot is an ACPI request: a server that is off stays off.
	"reboot": {command: "reboot_server", acpi: true, restarts: true},
	"reset":  {command: "reset_server", after: "running", restarts: true},
}

// serverAction serves POST /servers/{id}/actions/{command}: the power
// actions here, enable_rescue and disable_rescue through rescueAction. A
// server with a running action is locked, as in the API.
func (e *Emulator) serverAction(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("command")
	if e.rescueAction(w, r, name) {
		return
	}
	pc, known := powerCommands[name]
	withLocked(e, w, r, e.lookupServerLocked, func(s *server) {
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
		if pc.acpi && s.ignoresACPI {
			// Delivered and ignored: nothing changes, and the action succeeds.
			pc.during, pc.after, pc.restarts = "", "", false
		}
		a.onSuccess, a.onFailure = pc.after, s.status
		a.restarts = pc.restarts && s.status == "running"
		a.boots = a.restarts || (pc.after == "running" && s.status != "running")
		// Powering on a running server (or off one that is off) is accepted
		// and changes nothing, so it never shows starting or stopping.
		if pc.during != "" && s.status != pc.after {
			s.status = pc.during
		}
		e.advanceLocked(now, nil)
		writeJSON(w, http.StatusCreated, map[string]any{"action": a.wire()})
	})
}
