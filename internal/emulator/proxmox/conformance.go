package proxmox

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
)

// Conformance is the emulator seen through the adapter conformance
// suite's fault hooks (conformance.Faults), in PVE's terms, spelt in
// strings because the emulator never imports the adapters. An unknown
// word is an error; what PVE cannot show wraps errors.ErrUnsupported, so
// the case is skipped, never passed.
type Conformance struct{ e *Emulator }

// Conformance returns the emulator's conformance hooks.
func (e *Emulator) Conformance() Conformance { return Conformance{e: e} }

// conformanceRoutes names the request each contract call is judged by.
// Get and List both start from the cluster-wide listing; create is the
// clone; update the config write; power any status action.
var conformanceRoutes = map[string]faults.Target{
	"get":    {Method: "GET", Path: "/cluster/resources"},
	"list":   {Method: "GET", Path: "/cluster/resources"},
	"create": {Method: "POST", Path: "/nodes/{node}/qemu/{vmid}/clone"},
	"delete": {Method: "DELETE", Path: "/nodes/{node}/qemu/{vmid}"},
	"update": {Method: "POST", Path: "/nodes/{node}/qemu/{vmid}/config"},
	"power":  {Method: "POST", Path: "/nodes/{node}/qemu/{vmid}/status/*"},
	"any":    {Method: "*", Path: "*"},
}

// FailNext fails the next n requests of op (every one until Clear when
// n <= 0) the way PVE fails for class.
func (c Conformance) FailNext(op, class string, n int) error {
	r, err := faults.ConformanceRule("proxmox", conformanceRoutes, op, class, n, func(r *faults.Rule) error {
		switch class {
		case "server_error":
			r.Status, r.Message = http.StatusInternalServerError, "got unexpected error (emulated)"
		case "rate_limited":
			return fmt.Errorf("proxmox emulator: PVE has no rate limits: %w", errors.ErrUnsupported)
		case "auth_refused":
			r.Status, r.Message = http.StatusForbidden, "Permission check failed (/vms, VM.Audit)"
		case "locked":
			switch op {
			case "list", "any":
				return fmt.Errorf("proxmox emulator: PVE's listing never reports a lock as an error: %w", errors.ErrUnsupported)
			case "get":
				// The listing never fails for a lock; the direct read does.
				r.Path = "/nodes/{node}/qemu/{vmid}/status/current"
			}
			// The VMID in the text is not the request's: the rule is fixed.
			r.Status, r.Message = http.StatusInternalServerError, "can't lock file '/var/lock/qemu-server/lock-100.conf' - got timeout"
		case "partial_listing":
			return fmt.Errorf("proxmox emulator: GET /cluster/resources answers the whole cluster at once, it has no pages to lose: %w", errors.ErrUnsupported)
		default:
			return fmt.Errorf("proxmox emulator: no conformance fault class %q", class)
		}
		return nil
	})
	if err != nil {
		return err
	}
	return c.e.faults.AddRule(r)
}

// Revoke answers every request as PVE answers a deleted token.
func (c Conformance) Revoke() error {
	return c.e.faults.AddRule(faults.Rule{Method: "*", Path: "*", Status: http.StatusUnauthorized, Message: "authentication failure"})
}

// Clear removes every fault (rules, agent faults, held clones); the
// latency the emulator started with stays.
func (c Conformance) Clear() {
	c.e.faults.Clear()
	c.e.faults.SetLatency(c.e.opts.Latency)
	c.e.mu.Lock()
	c.e.agent = nil
	c.e.mu.Unlock()
	c.e.ReleaseClones()
}

// Stage puts VM id into situation and returns the raw state an adapter
// must report, "<status>" or "<status> (locked: <lock>)" for a locked
// VM. Stopping is a guest shutting down: PVE lists it "running" until
// QEMU exits (status/current's qmpstatus reads "shutdown" meanwhile) and
// its agent no longer answers, so it has no address.
func (c Conformance) Stage(id, situation string) (string, error) {
	vmid, err := strconv.Atoi(id)
	if err != nil {
		return "", fmt.Errorf("proxmox emulator: %q is not a VMID", id)
	}
	e := c.e
	e.mu.Lock()
	defer e.mu.Unlock()
	v, ok := e.vms[vmid]
	if !ok {
		return "", fmt.Errorf("proxmox emulator: no VM %d to stage", vmid)
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
	return "", fmt.Errorf("proxmox emulator: no conformance situation %q", situation)
}

// Requests counts the API requests served so far.
func (c Conformance) Requests() int {
	total := 0
	for _, n := range c.e.faults.Stats() {
		total += n
	}
	return total
}
