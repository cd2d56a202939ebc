package proxmox

import (
	"fmt"
	"net/http"
	"strings"
	"time"
)

// task is a worker PVE forked for a request. It runs in emulator time on
// its own, whatever happens to the request that started it.
type task struct {
	upid   string
	node   string
	typ    string
	id     string
	user   string
	pid    int
	start  time.Time
	exit   string // "" while running
	log    []string
	doneCh chan struct{}
}

func (t *task) running() bool { return t.exit == "" }

// requestUser is who the task runs as: the token's user and id, as PVE
// writes it into the UPID ("root@pam!tf").
func requestUser(r *http.Request) string {
	if v, ok := strings.CutPrefix(r.Header.Get("Authorization"), "PVEAPIToken="); ok {
		if id, _, ok := strings.Cut(v, "="); ok {
			return id
		}
	}
	return "root@pam"
}

// newTaskLocked starts a task; finishLocked ends it.
func (e *Emulator) newTaskLocked(node, typ, id, user string) *task {
	e.pidSeq++
	now := e.clock.Now()
	t := &task{node: node, typ: typ, id: id, user: user, pid: e.pidSeq, start: now, doneCh: make(chan struct{})}
	t.upid = fmt.Sprintf("UPID:%s:%08X:%08X:%08X:%s:%s:%s:", node, t.pid, 0x12F00D+t.pid, now.Unix(), typ, id, user)
	e.tasks[t.upid] = t
	return t
}

func (e *Emulator) finishLocked(t *task, exit string) {
	if !t.running() {
		return
	}
	if exit != "OK" {
		t.log = append(t.log, exit)
		t.log = append(t.log, "TASK ERROR: "+exit)
	} else {
		t.log = append(t.log, "TASK OK")
	}
	t.exit = exit
	close(t.doneCh)
}

// doneTaskLocked is a task that ended as it started, for the requests PVE
// forks a worker for that does its work at once.
func (e *Emulator) doneTaskLocked(node, typ, id, user, exit string) *task {
	t := e.newTaskLocked(node, typ, id, user)
	e.finishLocked(t, exit)
	return t
}

func (e *Emulator) taskStatus(w http.ResponseWriter, r *http.Request) {
	e.withTask(w, r, func(t *task) {
		out := map[string]any{
			"upid": t.upid, "node": t.node, "pid": t.pid, "pstart": 0x12F00D + t.pid, "starttime": t.start.Unix(),
			"type": t.typ, "id": t.id, "user": t.user, "status": "running",
		}
		if !t.running() {
			out["status"], out["exitstatus"] = "stopped", t.exit
		}
		writeData(w, out)
	})
}

func (e *Emulator) taskLog(w http.ResponseWriter, r *http.Request) {
	e.withTask(w, r, func(t *task) {
		lines := []map[string]any{}
		for i, l := range t.log {
			lines = append(lines, map[string]any{"n": i + 1, "t": l})
		}
		writeData(w, lines)
	})
}

// withTask runs fn under the emulator's lock with the task the path
// names, or answers why there is none: the start of every task handler.
func (e *Emulator) withTask(w http.ResponseWriter, r *http.Request, fn func(*task)) {
	e.mu.Lock()
	defer e.mu.Unlock()
	t, err := e.taskLocked(r)
	if err != nil {
		writeError(w, err)
		return
	}
	fn(t)
}

func (e *Emulator) taskLocked(r *http.Request) (*task, *apiError) {
	if _, err := e.reachLocked(r.PathValue("node")); err != nil {
		return nil, err
	}
	upid := r.PathValue("upid")
	if !strings.HasPrefix(upid, "UPID:") {
		return nil, failf(http.StatusInternalServerError, "unable to parse worker upid '%s'", upid)
	}
	t, ok := e.tasks[upid]
	if !ok || t.node != r.PathValue("node") {
		return nil, failf(http.StatusInternalServerError, "no such task")
	}
	return t, nil
}

// WaitTask blocks until the task upid ends or timeout passes and returns
// its exit status, for tests.
func (e *Emulator) WaitTask(upid string, timeout time.Duration) (string, error) {
	e.mu.Lock()
	t, ok := e.tasks[upid]
	e.mu.Unlock()
	if !ok {
		return "", fmt.Errorf("proxmox emulator: no task %s", upid)
	}
	select {
	case <-t.doneCh:
	case <-time.After(timeout):
		return "", fmt.Errorf("proxmox emulator: task %s still running after %s", upid, timeout)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return t.exit, nil
}
