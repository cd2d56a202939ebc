package proxmox

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/rest"
)

// resource is one VM as GET /cluster/resources?type=vm lists it: one read
// covers every node, so a VM is found wherever it runs (a migrated one too)
// and its absence there is authoritative: pmxcfs knows every VM of the
// cluster, those on offline nodes included, and the listing has no pages.
type resource struct {
	VMID     int    `json:"vmid"`
	Name     string `json:"name"`
	Node     string `json:"node"`
	Status   string `json:"status"`
	Template int    `json:"template"`
	Tags     string `json:"tags"`
	Lock     string `json:"lock"`
	MaxCPU   int    `json:"maxcpu"`
	MaxMem   int64  `json:"maxmem"`
	MaxDisk  int64  `json:"maxdisk"`
	Type     string `json:"type"`
	// Uptime is in whole seconds, 0 for a VM that does not run.
	Uptime int64 `json:"uptime"`
}

func (r resource) id() string { return strconv.Itoa(r.VMID) }

func (r resource) tags() []string { return tagSet(r.Tags) }

func (r resource) managed() bool {
	managed, _ := tagMark.Read(r.tags())
	return managed
}

// vms lists every VM and template of the cluster.
func (a *account) vms(ctx context.Context) ([]resource, error) {
	var out *[]resource
	err := a.c.Do(ctx, rest.Call{Method: http.MethodGet, Route: "/cluster/resources", Query: map[string][]string{"type": {"vm"}}}, &out)
	if err != nil {
		return nil, err
	}
	if out == nil {
		// PVE lists a cluster without VMs as [], so null is no listing,
		// and a VM missing from it would be taken for absent.
		return nil, adapter.Errorf(adapter.Transient,
			"the PVE API answered GET /cluster/resources without a list; check that the endpoint is the PVE API (%s)", exampleEndpoint)
	}
	return slices.DeleteFunc(*out, func(r resource) bool { return r.Type != "" && r.Type != "qemu" }), nil
}

// find is the VM vmid in list.
func find(list []resource, vmid int) (resource, bool) {
	i := slices.IndexFunc(list, func(r resource) bool { return r.VMID == vmid })
	if i < 0 {
		return resource{}, false
	}
	return list[i], true
}

// parseID reads a machine id, the VMID in decimal.
func parseID(id string) (int, error) {
	if !validVMID(id) {
		return 0, adapter.MalformedID(id, "a VMID", rules.MachineID.Text)
	}
	n, _ := strconv.Atoi(id)
	return n, nil
}

// PVE's statuses and locks.
const (
	statusRunning = "running"
	statusStopped = "stopped"
	statusUnknown = "unknown"
	lockDestroyed = "destroyed"
)

// toMachine maps a listed VM onto the contract, addresses from addrs (the
// agent's, or none). Conservative: running only with an address; a VM never
// started (cm-new) is pending, not stopped; a lock of a delete is
// deleting; a clone's or create's lock on a new VM is pending; a node that
// is offline leaves the status unknown.
func (a *account) toMachine(r resource, ad addresses) adapter.Machine {
	tags := r.tags()
	m := adapter.Machine{
		ID:       r.id(),
		Name:     r.Name,
		RawState: r.Status,
		OfferID:  a.offerOf(r.MaxCPU, r.MaxMem),
		Location: r.Node,
		IPv4:     ad.v4,
		IPv6:     ad.v6,
		Labels:   map[string]string{},
	}
	managed, mark := tagMark.Read(tags)
	// cm-unconfirmed means something only beside the managed tag.
	mark.Unconfirmed = managed && mark.Unconfirmed
	if managed {
		// The listing carries no description, so the key is derived from
		// the name, as the create that set the name derived it; a rename
		// writes the key of the new name (Update's Mark), so the two agree.
		mark.Key = adapter.IdempotencyKey(a.scope, r.Name)
	}
	m.SetMark(managed, mark)
	fresh := slices.Contains(tags, tagNew)
	m.RawState = rawState(r, m.HasAddress(), ad.why)
	switch {
	case r.Lock == lockDestroyed:
		m.State = adapter.StateDeleting
	case (r.Lock == "clone" || r.Lock == "create") && (fresh || !m.Managed):
		// A clone's first config write, which sets the tags, comes after
		// its task: until then the VM has only the mark in its description,
		// which the listing does not carry. So a listing (compute_machines)
		// shows our VM under a clone unmanaged until the tags are written,
		// and only a direct read of its config (the create's probe) knows
		// it is ours; pending keeps either from reading it as stopped.
		m.State = adapter.StatePending
	case r.Status == statusRunning && m.HasAddress():
		m.State = adapter.StateRunning
	case r.Status == statusRunning:
		m.State = adapter.StatePending
	case r.Status == statusStopped && fresh:
		m.State = adapter.StatePending
	case r.Status == statusStopped:
		m.State = adapter.StateStopped
	default:
		m.State = adapter.StateUnknown
	}
	m.Actions = []adapter.PowerAction{}
	if m.Managed && r.Lock == "" {
		m.Actions = adapter.ActionsFor(powerState(r, m.State), capabilities)
	}
	return m
}

// powerState is the state the power actions follow: PVE's status for a
// running VM, whose stop, shutdown, reboot and reset need no guest agent,
// though without an address the VM reads pending (running needs one).
func powerState(r resource, state adapter.State) adapter.State {
	if r.Status == statusRunning {
		return adapter.StateRunning
	}
	return state
}

// rawState is PVE's status with what explains the normalized state: the
// lock on the VM, and for a running VM without an address what its agent
// said, e.g. "running (locked: backup; guest agent: not running)".
func rawState(r resource, addressed bool, why string) string {
	var notes []string
	if r.Lock != "" {
		notes = append(notes, "locked: "+r.Lock)
	}
	if r.Status == statusRunning && !addressed && why != "" {
		notes = append(notes, "guest agent: "+why)
	}
	if len(notes) == 0 {
		return r.Status
	}
	return r.Status + " (" + strings.Join(notes, "; ") + ")"
}

// offerOf names the flavor with these cores and memory, when exactly one
// has them; "" otherwise (the state keeps what was asked for).
func (a *account) offerOf(cores int, maxmem int64) string {
	found := ""
	for name, f := range a.flavors {
		if f.Cores == cores && int64(f.MemoryMiB)<<20 == maxmem {
			if found != "" {
				return ""
			}
			found = name
		}
	}
	return found
}
