package proxmox

import (
	"net/http"
	"regexp"
	"strconv"
	"strings"
)

func getConfig(w http.ResponseWriter, _ *http.Request, v *vm) {
	writeData(w, v.configData())
}

// setConfig is POST (async: answers a qmconfig UPID) and PUT (sync:
// answers null) of …/config. Both refuse a locked VM, take its lock file,
// check digest, apply delete= and the values, all or nothing.
func (e *Emulator) setConfig(async bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		e.mu.Lock()
		v, err := e.vmLocked(r.PathValue("node"), r.PathValue("vmid"))
		if err == nil {
			err = v.checkLockUnlessSkipped(r)
		}
		e.mu.Unlock()
		if err != nil {
			writeError(w, err)
			return
		}
		release, err := e.locks.acquire(v.vmid)
		if err != nil {
			writeError(w, err)
			return
		}
		defer release()
		e.mu.Lock()
		defer e.mu.Unlock()
		if err := e.applyConfigLocked(r, v); err != nil {
			writeError(w, err)
			return
		}
		if async {
			writeData(w, e.doneTaskLocked(v.node, "qmconfig", strconv.Itoa(v.vmid), requestUser(r), "OK").upid)
			return
		}
		writeData(w, nil)
	}
}

func (e *Emulator) applyConfigLocked(r *http.Request, v *vm) *apiError {
	if _, gone := e.vms[v.vmid]; !gone {
		return failf(http.StatusInternalServerError, "Configuration file 'nodes/%s/qemu-server/%d.conf' does not exist", v.node, v.vmid)
	}
	if err := v.checkLockUnlessSkipped(r); err != nil {
		return err
	}
	if d := r.Form.Get("digest"); d != "" && d != v.digest() {
		return failf(http.StatusInternalServerError, "detected modified configuration - file changed by other user? Try again.")
	}
	set := map[string]string{}
	for k := range r.Form {
		if !isConfigKey(k) {
			continue
		}
		val, err := e.configValueLocked(v, k, r.Form.Get(k))
		if err != nil {
			return err
		}
		set[k] = val
	}
	errs := map[string]string{}
	var deletes []string
	for _, k := range strings.FieldsFunc(r.Form.Get("delete"), func(r rune) bool { return r == ',' || r == ';' || r == ' ' }) {
		if _, both := set[k]; both {
			errs["delete"] = "unable to delete and set the same option '" + k + "'"
		}
		deletes = append(deletes, k)
	}
	if len(errs) > 0 {
		return paramError(errs)
	}
	for _, k := range deletes {
		delete(v.conf, k)
	}
	for k, val := range set {
		v.conf[k] = val
	}
	return nil
}

var sizeRE = regexp.MustCompile(`^(\+?)(\d+(?:\.\d+)?[KMGT]?)$`)

// resize is PUT …/resize, a qmresize task in PVE 8: the worker refuses to
// shrink with "shrinking disks is not supported".
func (e *Emulator) resize(w http.ResponseWriter, r *http.Request, v *vm) {
	// The schema's pattern for size is sizeRE's, so a request that gets
	// here matches; the match splits the sign from the size.
	m := sizeRE.FindStringSubmatch(r.Form.Get("size"))
	if m == nil {
		writeError(w, paramError(map[string]string{"size": "value does not match the regex pattern"}))
		return
	}
	if err := v.checkLockUnlessSkipped(r); err != nil {
		writeError(w, err)
		return
	}
	disk := r.Form.Get("disk")
	current, ok := diskSize(v.conf[disk])
	if !ok {
		writeError(w, failf(http.StatusInternalServerError, "disk '%s' does not exist", disk))
		return
	}
	size, _ := parseSize(m[2])
	if m[1] == "+" {
		size += current
	}
	exit := "OK"
	switch {
	case size < current:
		exit = "shrinking disks is not supported"
	case size > current:
		v.conf[disk] = setSize(v.conf[disk], size)
	}
	writeData(w, e.doneTaskLocked(v.node, "resize", strconv.Itoa(v.vmid), requestUser(r), exit).upid)
}

// destroy is DELETE …/{vmid}: refused while running or locked; the
// qmdestroy task keeps the VM listed with lock "destroyed" for
// DestroyDuration and then removes it.
func (e *Emulator) destroy(w http.ResponseWriter, r *http.Request, v *vm) {
	if v.status == "running" {
		writeError(w, failf(http.StatusInternalServerError, "VM %d is running - destroy failed", v.vmid))
		return
	}
	v.lock = "destroyed"
	t := e.newTaskLocked(v.node, "qmdestroy", strconv.Itoa(v.vmid), requestUser(r))
	go func() {
		<-e.clock.After(e.opts.DestroyDuration)
		e.mu.Lock()
		defer e.mu.Unlock()
		if e.vms[v.vmid] == v {
			delete(e.vms, v.vmid)
		}
		e.finishLocked(t, "OK")
	}()
	writeData(w, t.upid)
}
