package proxmox

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/hooks"
)

// Conformance returns the emulator's conformance hooks (conformance.Faults)
// in PVE's terms; what PVE cannot show is unsupported, so the case is
// skipped, never passed.
func (e *Emulator) Conformance() *hooks.Hooks {
	// The VMID in the text is not the request's: the rule is fixed.
	const lockFailed = "can't lock file '/var/lock/qemu-server/lock-100.conf' - got timeout"
	return hooks.New(e.faults, hooks.Table{
		Emulator: "proxmox",
		// Get and List both start from the cluster-wide listing; create is
		// the clone; update the config write; power any status action.
		Routes: hooks.Routes{
			Get:    hooks.Route{Method: "GET", Path: "/cluster/resources"},
			List:   hooks.Route{Method: "GET", Path: "/cluster/resources"},
			Create: hooks.Route{Method: "POST", Path: "/nodes/{node}/qemu/{vmid}/clone"},
			Delete: hooks.Route{Method: "DELETE", Path: "/nodes/{node}/qemu/{vmid}"},
			Update: hooks.Route{Method: "POST", Path: "/nodes/{node}/qemu/{vmid}/config"},
			Power:  hooks.Route{Method: "POST", Path: "/nodes/{node}/qemu/{vmid}/status/*"},
		},
		Answers: hooks.Answers{
			ServerError: hooks.Answer{Status: http.StatusInternalServerError, Message: "got unexpected error (emulated)"},
			RateLimited: hooks.Cannot("PVE has no rate limits"),
			AuthRefused: hooks.Answer{Status: http.StatusForbidden, Message: "Permission check failed (/vms, VM.Audit)"},
			// The listing never fails for a lock; the direct read does.
			Locked: hooks.Answer{Status: http.StatusInternalServerError, Message: lockFailed,
				Only: []string{hooks.OpGet, hooks.OpCreate, hooks.OpDelete, hooks.OpUpdate, hooks.OpPower}, Why: "PVE's listing never reports a lock as an error",
				Elsewhere: hooks.Routes{Get: hooks.Route{Method: "GET", Path: "/nodes/{node}/qemu/{vmid}/status/current"}}},
			PartialListing: hooks.Cannot("GET /cluster/resources answers the whole cluster at once, it has no pages to lose"),
		},
		Revoked: hooks.Answer{Status: http.StatusUnauthorized, Message: "authentication failure"},
		Latency: e.opts.Latency,
		// Agent faults and held clones are the emulator's own.
		Clear: func() {
			e.mu.Lock()
			e.agent = nil
			e.mu.Unlock()
			e.ReleaseClones()
		},
		Stage: e.stage,
	})
}

// stage puts VM id into situation and returns the raw state an adapter
// must report, "<status>" or "<status> (locked: <lock>)" for a locked
// VM. Stopping is a guest shutting down: PVE lists it "running" until
// QEMU exits (status/current's qmpstatus reads "shutdown" meanwhile) and
// its agent no longer answers, so it has no address.
func (e *Emulator) stage(id, situation string) (string, error) {
	vmid, err := strconv.Atoi(id)
	if err != nil {
		return "", fmt.Errorf("%q is not a VMID", id)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	v, ok := e.vms[vmid]
	if !ok {
		return "", fmt.Errorf("no VM %d to stage", vmid)
	}
	silence := func() {
		if e.agent == nil {
			e.agent = agentFault{}
		}
		e.agent[vmid] = AgentNotRunning
	}
	switch situation {
	case "provisioning":
		tags, _ := normalizeTags(v.conf["tags"] + ";cm-new")
		v.conf["tags"] = tags
		v.status, v.qmpstatus, v.lock = "stopped", "stopped", "clone"
		return "stopped (locked: clone)", nil
	case "unaddressed":
		v.status, v.qmpstatus, v.lock = "running", "running", ""
		v.startedAt = e.clock.Now()
		silence()
		// The adapter's raw state says why there is no address.
		return "running (guest agent: not running)", nil
	case "stopping":
		v.status, v.qmpstatus, v.lock = "running", "shutdown", ""
		silence()
		return "running (guest agent: not running)", nil
	case "deleting":
		v.lock = "destroyed"
		return v.status + " (locked: destroyed)", nil
	case "unrecognised":
		// No status PVE reports for a VM: a word an adapter cannot know.
		v.status, v.lock = "hibernating", ""
		return v.status, nil
	}
	return "", fmt.Errorf("no situation %q", situation)
}
