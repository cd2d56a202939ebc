package proxmox

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// nodeStatus is GET /nodes/{node}/status: the host's figures, in every
// field the schema requires.
func (e *Emulator) nodeStatus(w http.ResponseWriter, _ *http.Request, n *node) {
	total, used := int64(n.MemoryMiB)<<20, e.nodeMemLocked(n)
	writeData(w, map[string]any{
		"boot-info": map[string]any{"mode": "efi", "secureboot": 0},
		"cpu":       0.01,
		"cpuinfo":   map[string]any{"cores": n.Cores, "cpus": n.Cores, "model": "QEMU Virtual CPU", "sockets": 1},
		"current-kernel": map[string]any{
			"machine": "x86_64", "release": "6.8.12-4-pve", "sysname": "Linux",
			"version": "#1 SMP PREEMPT_DYNAMIC PMX 6.8.12-4 (2024-11-06T15:04Z)",
		},
		"loadavg":    []string{"0.10", "0.05", "0.01"},
		"memory":     map[string]any{"total": total, "used": used, "free": total - used, "available": total - used},
		"pveversion": "pve-manager/8.3.2/3e76eec21c4a14a7",
		"rootfs":     map[string]any{"total": int64(100) << 30, "used": int64(10) << 30, "free": int64(90) << 30, "avail": int64(90) << 30},
		"uptime":     86400,
	})
}

// listVMs is GET /nodes/{node}/qemu: the node's VMs and templates.
func (e *Emulator) listVMs(w http.ResponseWriter, r *http.Request, n *node) {
	ids := make([]int, 0, len(e.vms))
	for id, v := range e.vms {
		if v.node == n.Name {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	out := []map[string]any{}
	for _, id := range ids {
		v := e.vms[id]
		entry := v.statusFields(e.clock.Now())
		// The list shows QEMU's own status only when asked for in full.
		if boolParam(r, "full") && v.qmpstatus != "" {
			entry["qmpstatus"] = v.qmpstatus
		}
		out = append(out, entry)
	}
	writeData(w, out)
}

// listPools is GET /pools: the emulated cluster has no resource pools;
// asking for one by id is PVE's "pool … does not exist".
func (e *Emulator) listPools(w http.ResponseWriter, r *http.Request) {
	if id := r.Form.Get("poolid"); id != "" {
		writeError(w, failf(http.StatusInternalServerError, "pool '%s' does not exist", id))
		return
	}
	writeData(w, []any{})
}

// regenerateCloudinit is PUT …/cloudinit: PVE rewrites the cloud-init
// drive from the config; here the config is all there is, so it checks
// that there is a VM, unlocked, with a cloud-init drive.
func regenerateCloudinit(w http.ResponseWriter, _ *http.Request, _ *vm) {
	writeData(w, nil)
}

// volumeInfo is GET /nodes/{node}/storage/{storage}/content/{volume}: a
// disk of a VM on the node, or a snippet of storage local. The volume is
// "STORAGE:NAME" or NAME alone.
func (e *Emulator) volumeInfo(w http.ResponseWriter, r *http.Request, n *node, s storageDef) {
	storage := s.name
	volume := r.PathValue("volume")
	if st, name, ok := strings.Cut(volume, ":"); ok {
		if st != storage {
			writeError(w, failf(http.StatusBadRequest, "volume '%s' is not on storage '%s'", volume, storage))
			return
		}
		volume = name
	}
	if b, ok := n.storage[volume]; ok && s.name == "local" {
		writeData(w, map[string]any{"format": "snippet", "path": s.path + "/" + volume, "size": len(b), "used": len(b)})
		return
	}
	for _, v := range e.vms {
		if v.node != n.Name {
			continue
		}
		for _, drive := range v.conf {
			if !strings.HasPrefix(drive, storage+":"+volume) {
				continue
			}
			rest := strings.TrimPrefix(drive, storage+":"+volume)
			if rest != "" && rest[0] != ',' {
				continue
			}
			size, _ := diskSize(drive)
			path := "/dev/pve/" + volume[strings.LastIndex(volume, "/")+1:]
			if s.path != "" {
				path = s.path + "/images/" + strconv.Itoa(v.vmid) + "/" + volume
			}
			writeData(w, map[string]any{"format": "raw", "path": path, "size": size, "used": size})
			return
		}
	}
	writeError(w, failf(http.StatusInternalServerError, "no such volume '%s:%s'", storage, volume))
}
