package proxmox

import (
	"context"
	"net/http"
	"slices"
	"strconv"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/rest"
)

// managedResource is the VM id names, refused with AccessDenied when it is
// not tagged compute (never ours to delete or power) and with Transient
// while a lock is on it.
func (a *account) managedResource(ctx context.Context, verb, id string) (resource, error) {
	r, err := a.resourceByID(ctx, id)
	if err != nil {
		return resource{}, err
	}
	if !r.managed() {
		return resource{}, unmarked(verb, r)
	}
	if r.Lock != "" && r.Lock != lockDestroyed {
		return resource{}, adapter.Errorf(adapter.Transient, "%s: %s is locked (%s) by a task of PVE's; it is tried again once the lock is gone", verb, describe(r), r.Lock)
	}
	return r, nil
}

// Delete stops a running VM, destroys it with its disks and removes its
// snippet. A VM that is gone is NotFound; one being deleted is left to
// that deletion.
func (a *account) Delete(ctx context.Context, id string) error {
	what := "delete VM " + id
	r, err := a.managedResource(ctx, "delete", id)
	if err != nil {
		return err
	}
	a.addrs.forget(r.VMID)
	if r.Lock == lockDestroyed {
		return nil
	}
	if r.Status == statusRunning {
		if err := a.postTask(ctx, what+": stop it", r.Node, "/nodes/{node}/qemu/{vmid}/status/stop", nil, r.Node, id); err != nil {
			return err
		}
	}
	var upid string
	err = a.c.Do(ctx, rest.Call{Method: http.MethodDelete, Route: "/nodes/{node}/qemu/{vmid}", Args: []string{r.Node, id},
		Query: map[string][]string{"purge": {"1"}, "destroy-unreferenced-disks": {"1"}}}, &upid)
	if err != nil {
		if isNotExist(err) {
			return adapter.Errorf(adapter.NotFound, "%s: it is gone", what)
		}
		return fail(what, err)
	}
	// Accepted: PVE destroys the VM in its task, which lists it locked
	// "destroyed" (deleting) until it is gone; the caller waits for that.
	// The snippet goes now, since nothing will start the VM again.
	_ = upid
	return a.removeSnippet(ctx, r.Node, r.VMID)
}

// Power runs one power action and waits for its task. on drops cm-new once
// the start succeeded: the VM is no longer a fresh one.
func (a *account) Power(ctx context.Context, id string, action adapter.PowerAction) error {
	what := action.Verb() + " VM " + id
	r, err := a.managedResource(ctx, action.Verb(), id)
	if err != nil {
		return err
	}
	// A reset leaves QEMU, and so the uptime, running while the guest
	// boots again: what a listing remembered of it is gone, also what a
	// listing in flight remembers after the task.
	a.addrs.forget(r.VMID)
	defer a.addrs.forget(r.VMID)
	running := r.Status == statusRunning
	var cmd string
	switch action {
	case adapter.PowerOn:
		if running {
			return a.dropNew(ctx, r)
		}
		cmd = "start"
	case adapter.PowerOff:
		if !running {
			return nil
		}
		cmd = "stop"
	case adapter.PowerShutdown:
		if !running {
			return nil
		}
		cmd = "shutdown"
	case adapter.PowerReboot, adapter.PowerReset:
		if !running {
			return adapter.Errorf(adapter.InvalidState, "%s: it is %s; a %s never starts a machine, power it on instead", what, r.Status, action.Verb()).WithField(adapter.FieldPower)
		}
		cmd = map[adapter.PowerAction]string{adapter.PowerReboot: "reboot", adapter.PowerReset: "reset"}[action]
	default:
		return adapter.Errorf(adapter.Unsupported, "%s: Proxmox has no such power action", what).WithField(adapter.FieldPower)
	}
	if err := a.postTask(ctx, what, r.Node, "/nodes/{node}/qemu/{vmid}/status/"+cmd, nil, r.Node, id); err != nil {
		return err
	}
	if action == adapter.PowerOn {
		return a.dropNew(ctx, r)
	}
	return nil
}

// dropNew removes cm-new from the tags of a VM that was started, or whose
// create asked for power off and is done.
func (a *account) dropNew(ctx context.Context, r resource) error {
	tags := r.tags()
	if !slices.Contains(tags, tagNew) {
		return nil
	}
	form := map[string][]string{"tags": {markedTags(tags, claimTag(tags), slices.Contains(tags, tagUnconfirmed), false)}}
	if err := a.setConfig(ctx, r.Node, r.VMID, form); err != nil {
		return fail("drop tag "+tagNew+" of "+describe(r)+" now that its create is done", err)
	}
	return nil
}

// Update renames the VM and, with req.Mark, writes the mark (an import's
// first apply): description block and tags in one config write.
func (a *account) Update(ctx context.Context, id string, req adapter.UpdateRequest) (adapter.Machine, error) {
	what := "update VM " + id
	if len(req.Labels) > 0 {
		return adapter.Machine{}, adapter.Errorf(adapter.InvalidInput, "%s: Proxmox keeps tags, not key/value labels; set labels to {}", what).WithField(adapter.FieldLabels)
	}
	r, err := a.resourceByID(ctx, id)
	if err != nil {
		return adapter.Machine{}, err
	}
	vmid := r.VMID
	if !r.managed() && req.Mark == nil {
		return adapter.Machine{}, unmarked("change", r)
	}
	form := map[string][]string{}
	if req.Name != nil && *req.Name != r.Name {
		if !validName(*req.Name) {
			return adapter.Machine{}, adapter.Errorf(adapter.InvalidInput, "%s: name %s is not a VM name: it must be %s", what, adapter.Quoted(adapter.Redacted(*req.Name)), rules.MachineName.Text).WithField(adapter.FieldName)
		}
		form["name"] = []string{*req.Name}
	}
	if req.Mark != nil {
		cfg, err := a.config(ctx, r.Node, vmid)
		if err != nil {
			return adapter.Machine{}, fail(what+": read its configuration", err)
		}
		_, old, user := cfg.mark()
		tags := tagSet(cfg["tags"])
		if old.Claim == "" {
			old.Claim = claimTag(tags)
		}
		// A rename's mark: the key follows the name, the claim stays.
		mark := req.Mark.Over(old)
		form["description"] = []string{withMark(user, mark)}
		form["tags"] = []string{markedTags(tags, mark.Claim, mark.Unconfirmed, slices.Contains(tags, tagNew))}
	}
	if len(form) > 0 {
		if err := a.setConfig(ctx, r.Node, vmid, form); err != nil {
			return adapter.Machine{}, fail(what, err)
		}
	}
	return a.Get(ctx, strconv.Itoa(vmid))
}
