package proxmox

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// actionTasks are the status actions the emulator serves, with the task
// type each runs as.
var actionTasks = map[string]string{"start": "qmstart", "stop": "qmstop", "shutdown": "qmshutdown", "reboot": "qmreboot", "reset": "qmreset"}

func (e *Emulator) statusCurrent(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	v, err := e.vmLocked(r.PathValue("node"), r.PathValue("vmid"))
	if err != nil {
		writeError(w, err)
		return
	}
	out := map[string]any{
		"vmid": v.vmid, "name": v.conf["name"], "status": v.status, "qmpstatus": v.qmpstatus,
		"cpus": v.cores(), "maxmem": int64(v.memoryMiB()) << 20, "maxdisk": int64(v.diskGiB()) << 30,
		"uptime": 0, "cpu": 0, "mem": 0, "netin": 0, "netout": 0, "diskread": 0, "diskwrite": 0,
		"ha": map[string]any{"managed": 0},
	}
	if v.agentConfigured() {
		out["agent"] = 1
	}
	if v.status == "running" {
		out["uptime"] = int(e.clock.Now().Sub(v.startedAt).Seconds())
		out["pid"] = 100000 + v.vmid%100000
		out["mem"] = int64(v.memoryMiB()) << 19
	}
	if v.qmpstatus == "" {
		delete(out, "qmpstatus")
	}
	if v.template {
		out["template"] = 1
	}
	if v.lock != "" {
		out["lock"] = v.lock
	}
	if t := v.conf["tags"]; t != "" {
		out["tags"] = t
	}
	writeData(w, out)
}

func (v *vm) agentConfigured() bool {
	a := v.conf["agent"]
	return a == "1" || strings.HasPrefix(a, "1,") || strings.Contains(a, "enabled=1")
}

// powerAction is POST …/status/{start,stop,shutdown,reboot,reset}, each a
// task. What PVE refuses at once (a lock, a template, a VM not running)
// is refused here at once; what its worker finds (already running, a
// missing cicustom snippet) fails the task.
func (e *Emulator) powerAction(w http.ResponseWriter, r *http.Request) {
	action := r.PathValue("action")
	typ, ok := actionTasks[action]
	if !ok {
		writeError(w, failf(http.StatusNotImplemented, "Method 'POST %s' not implemented", strings.TrimPrefix(r.URL.Path, APIPrefix)))
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	v, err := e.vmLocked(r.PathValue("node"), r.PathValue("vmid"))
	if err == nil && !boolParam(r, "skiplock") {
		err = v.checkLock()
	}
	if err == nil && v.template {
		err = failf(http.StatusInternalServerError, "you can't %s a vm if it's a template", action)
	}
	if err == nil && v.status != "running" && (action == "shutdown" || action == "reboot" || action == "reset") {
		err = failf(http.StatusInternalServerError, "VM %d not running", v.vmid)
	}
	if err != nil {
		writeError(w, err)
		return
	}
	exit := "OK"
	now := e.clock.Now()
	switch action {
	case "start":
		switch missing := e.missingSnippetLocked(v); {
		case v.status == "running":
			exit = fmt.Sprintf("VM %d already running", v.vmid)
		case missing != "":
			exit = fmt.Sprintf("volume '%s' does not exist", missing)
		default:
			v.status, v.qmpstatus, v.startedAt = "running", "running", now
		}
	case "stop", "shutdown":
		v.status, v.qmpstatus = "stopped", "stopped"
	case "reboot", "reset":
		v.startedAt = now
	}
	writeData(w, e.doneTaskLocked(v.node, typ, strconv.Itoa(v.vmid), requestUser(r), exit).upid)
}

// missingSnippetLocked names the first volume of cicustom that is not on
// the VM's node, "" when all are there.
func (e *Emulator) missingSnippetLocked(v *vm) string {
	cicustom := v.conf["cicustom"]
	if cicustom == "" {
		return ""
	}
	n := e.nodeLocked(v.node)
	for _, part := range strings.Split(cicustom, ",") {
		_, volid, ok := strings.Cut(part, "=")
		if !ok {
			continue
		}
		storage, path, _ := strings.Cut(volid, ":")
		if _, ok := n.storage[path]; storage != "local" || !ok {
			return volid
		}
	}
	return ""
}
