package proxmox

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// actionTasks are the status actions the emulator serves, with the task
// type each runs as.
var actionTasks = map[string]string{"start": "qmstart", "stop": "qmstop", "shutdown": "qmshutdown", "reboot": "qmreboot", "reset": "qmreset"}

// statusCurrent is GET …/status/current: the VM's figures as the node's
// list shows them, with QEMU's status, the guest agent and HA beside.
func (e *Emulator) statusCurrent(w http.ResponseWriter, _ *http.Request, v *vm) {
	out := v.statusFields(e.clock.Now())
	out["ha"] = map[string]any{"managed": 0}
	if v.qmpstatus != "" {
		out["qmpstatus"] = v.qmpstatus
	}
	if v.agentConfigured() {
		out["agent"] = 1
	}
	writeData(w, out)
}

// statusFields are a VM's figures as GET /nodes/{node}/qemu lists them and
// GET …/status/current answers them, so the two cannot drift apart: the
// counters PVE keeps are 0 here, and a running VM has an uptime, half its
// memory in use and a pid.
func (v *vm) statusFields(now time.Time) map[string]any {
	f := map[string]any{
		"vmid": v.vmid, "name": v.conf["name"], "status": v.status, "cpus": v.cores(),
		"maxmem": int64(v.memoryMiB()) << 20, "maxdisk": int64(v.diskGiB()) << 30,
		"mem": 0, "cpu": 0, "uptime": 0, "netin": 0, "netout": 0, "diskread": 0, "diskwrite": 0,
	}
	if v.status == "running" {
		f["uptime"] = int(now.Sub(v.startedAt).Seconds())
		f["mem"] = int64(v.memoryMiB()) << 19
		f["pid"] = 100000 + v.vmid%100000
	}
	if v.template {
		f["template"] = 1
	}
	if v.lock != "" {
		f["lock"] = v.lock
	}
	if t := v.conf["tags"]; t != "" {
		f["tags"] = t
	}
	return f
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
	if err == nil {
		err = v.checkLockUnlessSkipped(r)
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
