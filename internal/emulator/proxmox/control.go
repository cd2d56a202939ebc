package proxmox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
)

// VMInfo is a VM as the control API shows it.
type VMInfo struct {
	VMID     int               `json:"vmid"`
	Node     string            `json:"node"`
	Status   string            `json:"status"`
	Lock     string            `json:"lock,omitempty"`
	Template bool              `json:"template"`
	Config   map[string]string `json:"config"`
}

// VMs lists every VM and template by VMID.
func (e *Emulator) VMs() []VMInfo {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := []VMInfo{}
	for _, v := range e.vms {
		conf := map[string]string{}
		for k, val := range v.conf {
			conf[k] = val
		}
		out = append(out, VMInfo{VMID: v.vmid, Node: v.node, Status: v.status, Lock: v.lock, Template: v.template, Config: conf})
	}
	slices.SortFunc(out, func(a, b VMInfo) int { return a.VMID - b.VMID })
	return out
}

// VM returns one VM, false when there is none.
func (e *Emulator) VM(vmid int) (VMInfo, bool) {
	for _, v := range e.VMs() {
		if v.VMID == vmid {
			return v, true
		}
	}
	return VMInfo{}, false
}

// SetNodeOnline takes a node off the cluster or brings it back.
func (e *Emulator) SetNodeOnline(name string, online bool) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	n := e.nodeLocked(name)
	if n == nil {
		return fmt.Errorf("proxmox emulator: no node %q", name)
	}
	n.Online = online
	return nil
}

// Counters are what GET /_emulator/proxmox/counters reports.
type Counters struct {
	Authorized   int `json:"authorized"`
	LockWaits    int `json:"lock_waits"`
	LockTimeouts int `json:"lock_timeouts"`
	HeldClones   int `json:"held_clones"`
}

// control is the emulator's own part of the control API:
//
//	GET  /vms                 every VM: [{"vmid":100,"node":"pve1","status":"stopped","config":{…}}]
//	POST /vms                 add one behind the provider's back: {"Name":"x","Node":"pve1","Tags":"","Description":""}
//	GET  /counters            {"authorized":0,"lock_waits":0,"lock_timeouts":0,"held_clones":0}
//	POST /clones/hold         clone tasks from now on wait after their CloneDuration
//	POST /clones/release      let them finish: {"released": N}
//	POST /agent               {"vmid":0,"fault":"hang"|"not_running"|""} (vmid 0: every VM)
//	POST /nodes               {"name":"pve2","online":false}
//	POST /locks               {"vmid":9000,"lock":"backup"} sets a config lock ("" clears)
func (e *Emulator) control() map[string]http.Handler {
	return map[string]http.Handler{
		"GET /vms": http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { controlJSON(w, http.StatusOK, e.VMs()) }),
		"POST /vms": decoded(`{"Name":"web","Node":"pve1","Tags":"","Description":""}`, func(w http.ResponseWriter, s VMSeed) error {
			id, err := e.AddVM(s)
			if err != nil {
				return err
			}
			v, _ := e.VM(id)
			controlJSON(w, http.StatusCreated, v)
			return nil
		}),
		"GET /counters": http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			controlJSON(w, http.StatusOK, Counters{Authorized: e.Authorized(), LockWaits: e.LockWaits(), LockTimeouts: e.LockTimeouts(), HeldClones: e.HeldClones()})
		}),
		"POST /clones/hold": http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			e.HoldClones()
			w.WriteHeader(http.StatusNoContent)
		}),
		"POST /clones/release": http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			controlJSON(w, http.StatusOK, map[string]int{"released": e.ReleaseClones()})
		}),
		"POST /agent": applied(`{"vmid":0,"fault":"hang"}`, func(b agentBody) error { return e.SetAgentFault(b.VMID, b.Fault) }),
		"POST /nodes": applied(`{"name":"pve2","online":false}`, func(b nodeBody) error { return e.SetNodeOnline(b.Name, b.Online) }),
		"POST /locks": applied(`{"vmid":9000,"lock":"backup"}`, func(b lockBody) error { return e.SetConfigLock(b.VMID, b.Lock) }),
	}
}

// The bodies of the control routes that change one thing.
type (
	agentBody struct {
		VMID  int        `json:"vmid"`
		Fault AgentFault `json:"fault"`
	}
	nodeBody struct {
		Name   string `json:"name"`
		Online bool   `json:"online"`
	}
	lockBody struct {
		VMID int    `json:"vmid"`
		Lock string `json:"lock"`
	}
)

// decoded reads a JSON body of type T, refusing unknown fields with the
// shape to send, and hands it to handle, whose error is a 400.
func decoded[T any](shape string, handle func(http.ResponseWriter, T) error) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var v T
		dec := json.NewDecoder(r.Body)
		dec.DisallowUnknownFields()
		if err := dec.Decode(&v); err != nil {
			controlJSON(w, http.StatusBadRequest, map[string]string{"error": fmt.Sprintf("reading the body: %v; send %s", err, shape)})
			return
		}
		if err := handle(w, v); err != nil {
			controlJSON(w, http.StatusBadRequest, map[string]string{"error": err.Error()})
		}
	})
}

// applied is decoded for a change with nothing to answer: 204 when apply
// succeeds.
func applied[T any](shape string, apply func(T) error) http.Handler {
	return decoded(shape, func(w http.ResponseWriter, v T) error {
		if err := apply(v); err != nil {
			return err
		}
		w.WriteHeader(http.StatusNoContent)
		return nil
	})
}

func controlJSON(w http.ResponseWriter, status int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}
