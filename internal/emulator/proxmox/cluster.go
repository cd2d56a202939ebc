package proxmox

import (
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

func (e *Emulator) version(w http.ResponseWriter, r *http.Request) {
	writeData(w, map[string]any{"version": "8.3.2", "release": "8.3", "repoid": "3e76eec21c4a14a7"})
}

// nodeMemLocked is the memory n's running guests use, plus the host's own.
func (e *Emulator) nodeMemLocked(n *node) int64 {
	used := int64(2) << 30
	for _, v := range e.vms {
		if v.node == n.Name && v.status == "running" {
			used += int64(v.memoryMiB()) << 20
		}
	}
	return used
}

func (e *Emulator) listNodes(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := []map[string]any{}
	for _, n := range e.nodes {
		out = append(out, e.nodeEntryLocked(n, false))
	}
	writeData(w, out)
}

// nodeEntryLocked is a node as /nodes lists it; PVE leaves the figures
// out for an offline node. asResource adds what /cluster/resources adds.
func (e *Emulator) nodeEntryLocked(n *node, asResource bool) map[string]any {
	out := map[string]any{"node": n.Name, "status": "offline", "level": ""}
	if n.Online {
		out["status"] = "online"
		out["maxcpu"], out["maxmem"], out["mem"], out["cpu"], out["uptime"] = n.Cores, int64(n.MemoryMiB)<<20, e.nodeMemLocked(n), 0.01, 86400
		out["ssl_fingerprint"] = e.fingerprint
	}
	if asResource {
		out["id"], out["type"] = "node/"+n.Name, "node"
		delete(out, "ssl_fingerprint")
	}
	return out
}

func (e *Emulator) clusterStatus(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	online := 0
	for _, n := range e.nodes {
		if n.Online {
			online++
		}
	}
	out := []map[string]any{{"type": "cluster", "id": "cluster", "name": "emulated", "nodes": len(e.nodes), "quorate": b2i(2*online > len(e.nodes)), "version": 3}}
	for i, n := range e.nodes {
		entry := map[string]any{"type": "node", "id": "node/" + n.Name, "name": n.Name, "nodeid": i + 1, "online": b2i(n.Online), "local": b2i(i == 0), "level": ""}
		if n.addr != "" {
			entry["ip"] = n.addr
		} else {
			entry["ip"] = fmt.Sprintf("192.0.2.%d", 200+i)
		}
		out = append(out, entry)
	}
	writeData(w, out)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// clusterResources is GET /cluster/resources: every VM of every node in
// one answer (no pages), an offline node's VMs with status unknown.
func (e *Emulator) clusterResources(w http.ResponseWriter, r *http.Request) {
	typ := r.Form.Get("type")
	if typ != "" && !slices.Contains([]string{"vm", "storage", "node", "sdn"}, typ) {
		writeError(w, paramError(map[string]string{"type": "value '" + typ + "' does not have a value in the enumeration 'vm, storage, node, sdn'"}))
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	out := []map[string]any{}
	if typ == "" || typ == "vm" {
		ids := make([]int, 0, len(e.vms))
		for id := range e.vms {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		for _, id := range ids {
			out = append(out, e.vmResourceLocked(e.vms[id]))
		}
	}
	if typ == "" || typ == "node" {
		for _, n := range e.nodes {
			out = append(out, e.nodeEntryLocked(n, true))
		}
	}
	if typ == "" || typ == "storage" {
		for _, n := range e.nodes {
			for _, s := range storages {
				out = append(out, map[string]any{
					"id": "storage/" + n.Name + "/" + s.name, "type": "storage", "storage": s.name, "node": n.Name,
					"content": s.content, "plugintype": s.typ, "status": map[bool]string{true: "available", false: "unknown"}[n.Online],
					"shared": 0, "disk": 0, "maxdisk": int64(100) << 30,
				})
			}
		}
	}
	writeData(w, out)
}

func (e *Emulator) vmResourceLocked(v *vm) map[string]any {
	status := v.status
	if n := e.nodeLocked(v.node); n == nil || !n.Online {
		status = "unknown"
	}
	out := map[string]any{
		"id": "qemu/" + strconv.Itoa(v.vmid), "type": "qemu", "vmid": v.vmid, "name": v.conf["name"], "node": v.node,
		"status": status, "template": b2i(v.template), "maxcpu": v.cores(), "maxmem": int64(v.memoryMiB()) << 20,
		"maxdisk": int64(v.diskGiB()) << 30, "mem": 0, "cpu": 0, "disk": 0, "uptime": 0,
		"netin": 0, "netout": 0, "diskread": 0, "diskwrite": 0,
	}
	if status == "running" {
		out["uptime"] = int(e.clock.Now().Sub(v.startedAt).Seconds())
		out["mem"] = int64(v.memoryMiB()) << 19
	}
	if t := v.conf["tags"]; t != "" {
		out["tags"] = t
	}
	if v.lock != "" {
		out["lock"] = v.lock
	}
	return out
}

// nextID is GET /cluster/nextid. PVE answers the id as a string, though
// its schema says integer; so does the emulator.
func (e *Emulator) nextID(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if s := r.Form.Get("vmid"); s != "" {
		id, err := strconv.Atoi(s)
		if err != nil || id < 100 {
			writeError(w, paramError(map[string]string{"vmid": "invalid format - value does not look like a valid VM ID"}))
			return
		}
		if _, taken := e.vms[id]; taken {
			writeError(w, paramError(map[string]string{"vmid": fmt.Sprintf("VM %d already exists", id)}))
			return
		}
		writeData(w, strconv.Itoa(id))
		return
	}
	writeData(w, strconv.Itoa(e.nextFreeLocked(100)))
}

type storageDef struct{ name, typ, content, path string }

var storages = []storageDef{
	{name: "local", typ: "dir", content: "images,iso,vztmpl,backup,snippets,rootdir", path: "/var/lib/vz"},
	{name: "local-lvm", typ: "lvmthin", content: "images,rootdir"},
}

// storageNamed is the cluster's storage of that name, or PVE's refusal of
// a storage the cluster lacks.
func storageNamed(name string) (storageDef, *apiError) {
	for _, s := range storages {
		if s.name == name {
			return s, nil
		}
	}
	return storageDef{}, failf(http.StatusInternalServerError, "storage '%s' does not exist", name)
}

// onNode serves a /nodes/{node}/… route: under the lock, with the node it
// names reachable, or PVE's refusal.
func (e *Emulator) onNode(h func(w http.ResponseWriter, r *http.Request, n *node)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		e.mu.Lock()
		defer e.mu.Unlock()
		n, err := e.reachLocked(r.PathValue("node"))
		if err != nil {
			writeError(w, err)
			return
		}
		h(w, r, n)
	}
}

// onVM serves a /nodes/{node}/qemu/{vmid}/… route as onNode does, once
// the VM's config is on that node, or PVE's refusal. With unlockedOnly a
// VM with a config lock is refused as well, as PVE's check_lock does for
// a route that takes no skiplock.
func (e *Emulator) onVM(unlockedOnly bool, h func(w http.ResponseWriter, r *http.Request, v *vm)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		e.mu.Lock()
		defer e.mu.Unlock()
		v, err := e.vmLocked(r.PathValue("node"), r.PathValue("vmid"))
		if err == nil && unlockedOnly {
			err = v.checkLock()
		}
		if err != nil {
			writeError(w, err)
			return
		}
		h(w, r, v)
	}
}

// onNodeStorage serves a /nodes/{node}/storage/{storage}/… route as onNode
// does, once the storage is one the cluster has, or PVE's refusal.
func (e *Emulator) onNodeStorage(h func(w http.ResponseWriter, r *http.Request, n *node, s storageDef)) http.HandlerFunc {
	return e.onNode(func(w http.ResponseWriter, r *http.Request, n *node) {
		s, err := storageNamed(r.PathValue("storage"))
		if err != nil {
			writeError(w, err)
			return
		}
		h(w, r, n, s)
	})
}

func (e *Emulator) getStorage(w http.ResponseWriter, r *http.Request) {
	s, err := storageNamed(r.PathValue("storage"))
	if err != nil {
		writeError(w, err)
		return
	}
	out := map[string]any{"storage": s.name, "type": s.typ, "content": s.content, "digest": "5e4a2b1c0d9f8e7a6b5c4d3e2f1a0b9c8d7e6f5a"}
	if s.path != "" {
		out["path"] = s.path
	} else {
		out["vgname"], out["thinpool"] = "pve", "data"
	}
	writeData(w, out)
}

// storageContent is GET /nodes/{node}/storage/{storage}/content: the
// snippets of storage local (written over SFTP) as local:snippets/NAME.
func (e *Emulator) storageContent(w http.ResponseWriter, r *http.Request, n *node, s storageDef) {
	out := []map[string]any{}
	if content := r.Form.Get("content"); s.name == "local" && (content == "" || content == "snippets") {
		names := make([]string, 0, len(n.storage))
		for p := range n.storage {
			if strings.HasPrefix(p, "snippets/") {
				names = append(names, p)
			}
		}
		slices.Sort(names)
		for _, p := range names {
			out = append(out, map[string]any{"volid": "local:" + p, "format": "snippet", "size": len(n.storage[p]), "ctime": 0})
		}
	}
	writeData(w, out)
}
