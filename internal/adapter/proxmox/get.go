package proxmox

import (
	"context"
	"slices"
	"strconv"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// current is GET /nodes/{node}/qemu/{vmid}/status/current, the part read.
type current struct {
	Status string `json:"status"`
	Lock   string `json:"lock"`
	Name   string `json:"name"`
	Tags   string `json:"tags"`
}

// Get reads one VM: the cluster listing (which node, and whether it exists
// at all), its current status on that node, and its agent once. Absent only
// when the listing, which covers the whole cluster, does not show it.
func (a *account) Get(ctx context.Context, id string) (adapter.Machine, error) {
	r, err := a.resourceByID(ctx, id)
	if err != nil {
		return adapter.Machine{}, err
	}
	vmid := r.VMID
	var cur current
	if err := a.c.Get(ctx, "/nodes/{node}/qemu/{vmid}/status/current", &cur, r.Node, id); err != nil {
		if isNotExist(err) {
			// Listed a moment ago: it is moving (a migration) or being
			// destroyed right now, so busy, never absent.
			return adapter.Machine{}, adapter.Errorf(adapter.Transient, "read VM %s: it is listed on node %s but its configuration is not there (moving or being deleted); try again", id, r.Node)
		}
		return adapter.Machine{}, fail("read VM "+id+" on node "+r.Node, err)
	}
	r.Status, r.Lock = cur.Status, cur.Lock
	if cur.Tags != "" {
		r.Tags = cur.Tags
	}
	if cur.Name != "" {
		r.Name = cur.Name
	}
	cfg, err := a.config(ctx, r.Node, vmid)
	if err != nil {
		if isNotExist(err) {
			return adapter.Machine{}, adapter.Errorf(adapter.Transient, "read VM %s: it is listed on node %s but its configuration is not there (moving or being deleted); try again", id, r.Node)
		}
		return adapter.Machine{}, fail("read the configuration of VM "+id, err)
	}
	var ad addresses
	if agentAsked(r) {
		ad = a.addressesOf(ctx, r.Node, vmid)
		a.addrs.remember(r, ad, a.clock.Now())
	}
	return withMarkOf(a.toMachine(r, ad), cfg), nil
}

// withMarkOf completes a machine read directly with the mark its
// description carries: key and fingerprint, which the listing cannot show,
// and the claim as written in the clone call or the last mark.
func withMarkOf(m adapter.Machine, cfg vmConfig) adapter.Machine {
	managed, mark, _ := cfg.mark()
	if !managed {
		return m
	}
	m.Key, m.Fingerprint, m.Unconfirmed = mark.Key, mark.Fingerprint, mark.Unconfirmed
	if mark.Claim != "" {
		m.Claim = mark.Claim
	}
	return m
}

// resourceByID is resource of the VM id names, refused before any request
// when id is no VM id (rule 10, ids).
func (a *account) resourceByID(ctx context.Context, id string) (resource, error) {
	vmid, err := parseID(id)
	if err != nil {
		return resource{}, err
	}
	return a.resource(ctx, vmid)
}

// resource finds one VM in the cluster listing; NotFound when it is not
// there, InvalidState... never: a template is refused as not a machine.
func (a *account) resource(ctx context.Context, vmid int) (resource, error) {
	list, err := a.vms(ctx)
	if err != nil {
		return resource{}, fail("list the cluster's VMs", err)
	}
	r, ok := find(list, vmid)
	if !ok || r.Template == 1 {
		return resource{}, adapter.Errorf(adapter.NotFound, "VM %d does not exist in the cluster (GET /cluster/resources lists every VM of every node)", vmid)
	}
	return r, nil
}

// Inventory lists every VM of the cluster, managed or not; templates are
// never machines.
func (a *account) Inventory(ctx context.Context) ([]adapter.Machine, error) {
	list, err := a.vms(ctx)
	if err != nil {
		return nil, failListing("list the cluster's VMs", err)
	}
	list = slices.DeleteFunc(list, func(r resource) bool { return r.Template == 1 })
	ads := a.addressesAll(ctx, list)
	out := make([]adapter.Machine, 0, len(list))
	for _, r := range list {
		out = append(out, a.toMachine(r, ads[r.VMID]))
	}
	return out, nil
}

// List lists the managed VMs: those tagged compute. One listing, and one
// bounded agent read per running VM, concurrently.
func (a *account) List(ctx context.Context) ([]adapter.Machine, error) {
	list, err := a.vms(ctx)
	if err != nil {
		return nil, failListing("list the cluster's VMs", err)
	}
	list = slices.DeleteFunc(list, func(r resource) bool { return r.Template == 1 || !r.managed() })
	ads := a.addressesAll(ctx, list)
	out := make([]adapter.Machine, 0, len(list))
	for _, r := range list {
		out = append(out, a.toMachine(r, ads[r.VMID]))
	}
	return out, nil
}

// failListing is fail for a listing, where a NotFound cannot be absence
// (adapter.ListingFailed).
func failListing(what string, err error) error {
	return adapter.ListingFailed(fail(what, err), settingEndpoint, "the PVE API", exampleEndpoint)
}

// describe names a VM for messages.
func describe(r resource) string {
	return "VM " + strconv.Itoa(r.VMID) + " (" + strconv.Quote(r.Name) + ")"
}
