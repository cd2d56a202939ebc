package proxmox

import (
	"fmt"
	"maps"
	"net/http"
	"strconv"
	"strings"
)

func alreadyExists(vmid int) *apiError {
	return failf(http.StatusInternalServerError, "unable to create VM %d - VM %d already exists", vmid, vmid)
}

// clone is POST …/clone. Like qemu-server it refuses a VMID that exists,
// takes the source's lock file (waiting LockTimeout), then creates the
// new VM's config with lock "clone" under the same check, so of two
// clones to one VMID exactly one wins; the worker holds both locks for
// CloneDuration and runs on whatever becomes of the request.
func (e *Emulator) clone(w http.ResponseWriter, r *http.Request) {
	newidText := r.Form.Get("newid")
	if newidText == "" {
		writeError(w, paramError(map[string]string{"newid": "property is missing and it is not optional"}))
		return
	}
	newid, err := strconv.Atoi(newidText)
	if err != nil || newid < 100 || newid > 999999999 {
		writeError(w, paramError(map[string]string{"newid": "invalid format - value does not look like a valid VM ID"}))
		return
	}
	e.mu.Lock()
	src, aerr := e.vmLocked(r.PathValue("node"), r.PathValue("vmid"))
	if aerr == nil {
		aerr = e.cloneTargetLocked(r, newid)
	}
	e.mu.Unlock()
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	release, aerr := e.locks.acquire(src.vmid)
	if aerr != nil {
		writeError(w, aerr)
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if aerr := e.cloneTargetLocked(r, newid); aerr != nil {
		release()
		writeError(w, aerr)
		return
	}
	if aerr := src.checkLock(); aerr != nil {
		release()
		writeError(w, aerr)
		return
	}
	v := e.newCloneLocked(r, src, newid)
	t := e.newTaskLocked(src.node, "qmclone", strconv.Itoa(src.vmid), requestUser(r))
	t.log = append(t.log, fmt.Sprintf("create %s clone of drive scsi0 (%s)", map[bool]string{true: "full", false: "linked"}[boolParam(r, "full") || !src.template], src.conf["scsi0"]))
	hold, failure := e.holdCh, e.failCln
	e.failCln = ""
	if hold != nil {
		e.held++
	}
	go func() {
		defer release()
		<-e.clock.After(e.opts.CloneDuration)
		if hold != nil {
			<-hold
		}
		e.mu.Lock()
		defer e.mu.Unlock()
		if failure != "" {
			// qemu-server destroys what a failed clone made.
			delete(e.vms, v.vmid)
			e.finishLocked(t, failure)
			return
		}
		v.lock = ""
		e.finishLocked(t, "OK")
	}()
	writeData(w, t.upid)
}

// cloneTargetLocked checks what a clone can be refused for before it
// starts: the target node and a VMID that exists already.
func (e *Emulator) cloneTargetLocked(r *http.Request, newid int) *apiError {
	if target := r.Form.Get("target"); target != "" {
		if _, err := e.reachLocked(target); err != nil {
			return err
		}
	}
	if _, exists := e.vms[newid]; exists {
		return alreadyExists(newid)
	}
	return nil
}

func (e *Emulator) newCloneLocked(r *http.Request, src *vm, newid int) *vm {
	nodeName := src.node
	if target := r.Form.Get("target"); target != "" {
		nodeName = target
	}
	full := boolParam(r, "full") || !src.template
	conf := maps.Clone(src.conf)
	delete(conf, "description")
	name := r.Form.Get("name")
	if name == "" {
		name = "Copy-of-VM-" + src.conf["name"]
	}
	conf["name"] = name
	if d := r.Form.Get("description"); d != "" {
		conf["description"] = d
	}
	for key, drive := range src.conf {
		size, ok := diskSize(drive)
		if !ok || strings.Contains(drive, "media=cdrom") {
			continue
		}
		storage, _, _ := strings.Cut(drive, ":")
		if s := r.Form.Get("storage"); s != "" && full {
			storage = s
		}
		disk := fmt.Sprintf("vm-%d-disk-0", newid)
		if !full {
			disk = fmt.Sprintf("base-%d-disk-0/%s", src.vmid, disk)
		}
		conf[key] = fmt.Sprintf("%s:%s,size=%s", storage, disk, formatSize(size))
	}
	if ci, ok := src.conf["ide2"]; ok && strings.Contains(ci, "cloudinit") {
		storage, _, _ := strings.Cut(ci, ":")
		conf["ide2"] = fmt.Sprintf("%s:vm-%d-cloudinit,media=cdrom", storage, newid)
	}
	if net0, ok := conf["net0"]; ok {
		_, rest, _ := strings.Cut(net0, ",")
		conf["net0"] = "virtio=" + e.macLocked(newid) + "," + rest
	}
	e.ipSeq++
	v := &vm{vmid: newid, node: nodeName, status: "stopped", qmpstatus: "stopped", lock: "clone", conf: conf, ip: e.ipSeq}
	e.vms[newid] = v
	return v
}

// HoldClones makes every clone task started from now on wait, once its
// CloneDuration has passed, until ReleaseClones: the VM stays locked
// "clone" and its task running, as a clone of a large disk does while a
// client is killed.
func (e *Emulator) HoldClones() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.holdCh == nil {
		e.holdCh = make(chan struct{})
	}
}

// ReleaseClones lets the held clone tasks finish and stops holding new
// ones; it returns how many were held.
func (e *Emulator) ReleaseClones() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := e.held
	if e.holdCh != nil {
		close(e.holdCh)
	}
	e.holdCh, e.held = nil, 0
	return n
}

// HeldClones counts the clone tasks started while clones were held.
func (e *Emulator) HeldClones() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.held
}

// FailNextClone makes the next clone task end with exit (e.g. "clone
// failed: storage full") instead of OK; the VM it made is destroyed.
func (e *Emulator) FailNextClone(exit string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.failCln = exit
}
