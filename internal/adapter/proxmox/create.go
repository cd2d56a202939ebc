package proxmox

import (
	"context"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/rest"
)

// maxCloneAttempts bounds how often a create finds its slot taken by a
// concurrent create of another key before the contract's retry takes over.
const maxCloneAttempts = 8

// Create makes (or finishes, or adopts) the VM of call.IdempotencyKey, in
// the order of the design:
//
//  1. validate flavor, template, node and user data (plan), and that the
//     template's clone can be given a cloud-init drive;
//  2. probe the key's slots (slots.go): a free VMID, or the VM of the key;
//  3. the key's VM: adopt it when adapter.Adoptable allows, and finish it;
//  4. a free slot: clone the template there, the mark in the clone call's
//     description, queued per template; "already exists" sends the create
//     back to the probe, which then finds the winner or the next slot;
//  5. finish: wait for the clone's lock, configure, grow the disk, write
//     the snippet, start, drop cm-new; read the VM back.
//
// Steps 2 to 4 are the contract's adapter.CreateFlow.
func (a *account) Create(ctx context.Context, call adapter.Call, req adapter.CreateRequest) (_ adapter.Machine, err error) {
	defer func() { err = a.storageFault(err) }()
	what := "create VM " + strconv.Quote(req.Name)
	if err := checkCall(call, req); err != nil {
		return adapter.Machine{}, err
	}
	f, tpl, n, release, err := a.plan(ctx, req, true)
	defer release()
	if err != nil {
		return adapter.Machine{}, err
	}
	if err := a.checkTemplate(ctx, what, tpl); err != nil {
		return adapter.Machine{}, err
	}
	// The fingerprint of what the user asked for: the location as given,
	// not the node the create happens to pick.
	fpReq := req
	if fpReq.Location == "" {
		fpReq.Location = a.node
	}
	mark := adapter.Mark{Key: call.IdempotencyKey, Fingerprint: adapter.Fingerprint(fpReq), Claim: call.Claim, Unconfirmed: true}
	// The probe that looks for the key also finds the free slot the clone
	// takes, so it is never skipped.
	call.KeyAbsent = false
	c := &cloner{a: a, what: what, mark: mark, f: f, tpl: tpl, n: n, req: req, slots: map[string]slot{}}
	return adapter.CreateFlow{
		What: what, Call: call, Fingerprint: mark.Fingerprint, Clock: a.clock, Attempts: maxCloneAttempts,
		Find: c.find, Make: c.make, Take: c.take, Again: c.again,
	}.Run(ctx)
}

// cloner is one create's steps for the flow: free is the slot the last
// probe found free, slots the VMs of the key it found.
type cloner struct {
	a     *account
	what  string
	mark  adapter.Mark
	f     flavor
	tpl   resource
	n     node
	req   adapter.CreateRequest
	free  int
	slots map[string]slot
}

func (c *cloner) find(ctx context.Context) (adapter.Machine, bool, error) {
	s, err := c.a.probe(ctx, c.what, c.mark.Key)
	if err != nil || !s.ours {
		c.free = s.vmid
		return adapter.Machine{}, false, err
	}
	m := c.a.markedMachine(s)
	c.slots[m.ID] = s
	return m, true, nil
}

// make clones the template to the free slot and finishes the VM; "already
// exists" (a concurrent create took the slot) sends the flow back to the
// probe, which then finds the winner or the next slot.
func (c *cloner) make(ctx context.Context) (adapter.Machine, error) {
	err := c.a.clone(ctx, c.what, c.tpl, c.n, c.free, c.req.Name, c.mark)
	switch {
	case isAlreadyExists(err):
		return adapter.Machine{}, adapter.ErrLostRace
	case err != nil:
		return adapter.Machine{}, err
	}
	r := resource{VMID: c.free, Node: c.n.Node, Name: c.req.Name}
	return c.a.finish(ctx, c.what, r, c.mark, c.f, c.req, true)
}

// again is no second probe: a clone is a task whose end the create waited
// for, so its error already says what happened, and a rerun's probe finds a
// VM the clone left.
func (c *cloner) again(_ context.Context, err error) (adapter.Machine, bool, error) {
	return adapter.Machine{}, false, err
}

// take finishes the key's VM, which Adoptable allowed: an interrupted
// create's VM gets the rest of its create, with this create's claim. A
// failure leaves it to the next create's probe, not to the state.
func (c *cloner) take(ctx context.Context, found adapter.Machine, _ bool) (adapter.Machine, error) {
	s := c.slots[found.ID]
	tags := s.r.tags()
	// Fresh unless it was started: a VM that never had its config written
	// (no compute tag yet) or still carries cm-new.
	fresh := slices.Contains(tags, tagNew) || !slices.Contains(tags, tagManaged)
	m, err := c.a.finish(ctx, c.what, s.r, c.mark, c.f, c.req, fresh)
	if err != nil {
		return adapter.Machine{}, err
	}
	return m, nil
}

// checkCall refuses a create before the plan's requests: the contract's
// CheckCall, then the name.
func checkCall(call adapter.Call, req adapter.CreateRequest) error {
	if err := adapter.CheckCall(call); err != nil {
		return err
	}
	if !validName(req.Name) {
		return adapter.Errorf(adapter.InvalidInput, "name %s is not a VM name: it must be %s", adapter.Quoted(adapter.Redacted(req.Name)), rules.MachineName.Text).WithField(adapter.FieldName)
	}
	return nil
}

// clone clones tpl to vmid on n, holding the template's queue from the POST
// until the clone task ended, so this process never contends for the
// template's lock. The task goes on in PVE when ctx ends; a rerun finds
// the VM by its key and waits for the clone's lock instead of cloning again.
func (a *account) clone(ctx context.Context, what string, tpl resource, n node, vmid int, name string, mark adapter.Mark) error {
	q := a.queue(tpl.VMID)
	select {
	case q <- struct{}{}:
		defer func() { <-q }()
	case <-ctx.Done():
		return &adapter.Error{Code: adapter.Transient, Err: ctx.Err(),
			Message: what + ": the call ended while it waited for the clones of template " + describe(tpl) + " queued before it"}
	}
	full := "0"
	if a.fullClone {
		full = "1"
	}
	form := url.Values{
		"newid":       {strconv.Itoa(vmid)},
		"name":        {name},
		"description": {withMark("", mark)},
		"full":        {full},
	}
	if n.Node != tpl.Node {
		form.Set("target", n.Node)
	}
	if a.storage != "" && a.fullClone {
		form.Set("storage", a.storage)
	}
	var upid string
	err := a.c.Post(ctx, "/nodes/{node}/qemu/{vmid}/clone", form, &upid, tpl.Node, strconv.Itoa(tpl.VMID))
	posted := a.clock.Now()
	if err != nil {
		if isAlreadyExists(err) {
			return err
		}
		if isNotExist(err) {
			return templateGone(what, tpl)
		}
		return fail(what+": clone template "+describe(tpl)+" to VMID "+strconv.Itoa(vmid), err)
	}
	return a.waitClone(ctx, what+": clone template "+describe(tpl)+" to VMID "+strconv.Itoa(vmid), tpl.Node, upid, tpl.VMID, posted)
}

// templateGone is a template the cluster listed and that is not where it
// was when it is read or cloned.
func templateGone(what string, tpl resource) error {
	return adapter.Errorf(adapter.InvalidInput, "%s: template %s is not on node %s any more (removed or moved since the cluster was listed); "+
		"check image, or run again to clone it where it is now", what, describe(tpl), tpl.Node).WithField(adapter.FieldImage)
}

// finish is every create's tail, idempotent: it also finishes a VM an
// interrupted create left. Its errors come with the VM's id: the VM exists
// from the clone on, so the caller can keep it in state.
func (a *account) finish(ctx context.Context, what string, r resource, mark adapter.Mark, f flavor, req adapter.CreateRequest, fresh bool) (adapter.Machine, error) {
	if tagged, err := a.settle(ctx, what, r, mark, f, req, fresh); err != nil {
		// The VM goes to state (tainted) only once it carries the
		// compute tag: before, its delete would be refused as untagged,
		// and the next create finds it by its key in the description and
		// finishes it instead.
		if !tagged {
			return adapter.Machine{}, err
		}
		return adapter.Machine{ID: strconv.Itoa(r.VMID)}, err
	}
	m, err := a.Get(ctx, strconv.Itoa(r.VMID))
	if err != nil {
		return adapter.Machine{ID: strconv.Itoa(r.VMID)}, err
	}
	m.Key, m.Fingerprint = mark.Key, mark.Fingerprint
	return m, nil
}

// settle waits for the clone's lock, writes the snippet and the config,
// grows the disk, starts the VM when asked and drops cm-new. tagged says
// whether the config write, which tags the VM as ours, went through.
func (a *account) settle(ctx context.Context, what string, r resource, mark adapter.Mark, f flavor, req adapter.CreateRequest, fresh bool) (tagged bool, err error) {
	id := strconv.Itoa(r.VMID)
	status, err := a.waitUnlocked(ctx, what, r)
	if err != nil {
		return false, err
	}
	cfg, err := a.config(ctx, r.Node, r.VMID)
	if err != nil {
		return false, fail(what+": read the configuration of VM "+id, err)
	}
	if req.UserData != "" && a.snippets.enabled() {
		if err := a.writeSnippet(ctx, r.Node, r.VMID, req.UserData); err != nil {
			return false, err
		}
	}
	form, err := a.configForm(cfg, r.VMID, mark, f, req, fresh)
	if err != nil {
		return false, adapter.Within(what, err)
	}
	if err := a.setConfig(ctx, r.Node, r.VMID, form); err != nil {
		return false, fail(what+": configure VM "+id, err)
	}
	if err := a.grow(ctx, what, r, cfg, f); err != nil {
		return true, err
	}
	if !fresh {
		return true, nil
	}
	// A VM an interrupted create started already only lacks the removal
	// of cm-new.
	if req.PowerOn && status != statusRunning {
		if err := a.postTask(ctx, what+": start VM "+id, r.Node, "/nodes/{node}/qemu/{vmid}/status/start", nil, r.Node, id); err != nil {
			return true, err
		}
	}
	// Started, or configured for a create that asked for power off: the
	// create is done, and the VM now reads as it is. Until this write it
	// carries cm-new and reads pending, so a create cut short before it is
	// never taken for a stopped machine.
	r.Tags = markedTags(tagSet(cfg["tags"]), mark.Claim, mark.Unconfirmed, true)
	return true, a.dropNew(ctx, r)
}

// configForm is the post-clone config write: flavor, tags, cloud-init, the
// claim in the description; a cloud-init drive when the template has none.
func (a *account) configForm(cfg vmConfig, vmid int, mark adapter.Mark, f flavor, req adapter.CreateRequest, fresh bool) (url.Values, error) {
	_, _, user := cfg.mark()
	form := url.Values{
		"cores":       {strconv.Itoa(f.Cores)},
		"memory":      {strconv.Itoa(f.MemoryMiB)},
		"tags":        {markedTags(tagSet(cfg["tags"]), mark.Claim, mark.Unconfirmed, fresh)},
		"description": {withMark(user, mark)},
	}
	if a.ipconfig != "" {
		form.Set("ipconfig0", a.ipconfig)
	}
	if a.ciUser != "" {
		form.Set("ciuser", a.ciUser)
	}
	if a.keys != "" {
		// PVE wants sshkeys URL-encoded, spaces as %20.
		form.Set("sshkeys", strings.ReplaceAll(url.QueryEscape(strings.TrimSpace(a.keys)+"\n"), "+", "%20"))
	}
	if req.UserData != "" && a.snippets.enabled() {
		form.Set("cicustom", a.snippets.cicustom(vmid))
	}
	if !cfg.agentEnabled() {
		// Addresses come from the guest agent alone, which PVE asks only
		// over the channel agent: 1 adds; the guest still needs
		// qemu-guest-agent installed (the image note says so).
		form.Set("agent", "1")
	}
	if !cfg.hasCloudInit() {
		storage, err := a.cloudInitStorage(cfg)
		if err != nil {
			return nil, err
		}
		form.Set("ide2", storage+":cloudinit")
	}
	return form, nil
}

// cloudInitStorage is the storage a VM of cfg, which has no cloud-init
// drive, gets one on: the account's storage, else its boot disk's.
func (a *account) cloudInitStorage(cfg vmConfig) (string, error) {
	if a.storage != "" {
		return a.storage, nil
	}
	// The drive is a property string whose default key, file, may be
	// spelled out or stand anywhere: file=local-lvm:vm-9000-disk-0.
	disk := cfg.bootDisk()
	storage, _, _ := strings.Cut(cfg.drive(disk)["file"], ":")
	if !storageID.MatchString(storage) {
		// The template's boot disk names no storage (or one that would
		// add properties to the drive's property string).
		return "", adapter.Errorf(adapter.InvalidInput, "the template's boot disk (%s = %s) names no storage for the cloud-init drive; "+
			"set storage to a storage the cluster has, or use a template with a cloud-init drive",
			adapter.Quoted(disk), adapter.Quoted(cfg[disk])).WithField(adapter.FieldImage)
	}
	return storage, nil
}

// checkTemplate refuses, before anything is written, a template whose
// clone could not be given a cloud-init drive: run after the clone, the
// refusal would leave an untagged VM behind. With the storage setting the
// drive goes there, and the template need not be read.
func (a *account) checkTemplate(ctx context.Context, what string, tpl resource) error {
	if a.storage != "" {
		return nil
	}
	cfg, err := a.config(ctx, tpl.Node, tpl.VMID)
	switch {
	case isNotExist(err):
		return templateGone(what, tpl)
	case err != nil:
		return fail(what+": read the configuration of template "+describe(tpl), err)
	}
	if cfg.hasCloudInit() {
		return nil
	}
	_, err = a.cloudInitStorage(cfg)
	return adapter.Within(what+": template "+describe(tpl), err)
}

// grow resizes the boot disk up to the flavor's size; PVE refuses to
// shrink, so a larger disk is left as it is.
func (a *account) grow(ctx context.Context, what string, r resource, cfg vmConfig, f flavor) error {
	disk := cfg.bootDisk()
	if disk == "" || cfg.diskGiB(disk) >= float64(f.DiskGiB) {
		return nil
	}
	var upid *string
	err := a.c.Do(ctx, rest.Call{Method: http.MethodPut, Route: "/nodes/{node}/qemu/{vmid}/resize", Args: []string{r.Node, strconv.Itoa(r.VMID)},
		Form: url.Values{"disk": {disk}, "size": {strconv.Itoa(f.DiskGiB) + "G"}}}, &upid)
	if err != nil {
		return fail(what+": grow disk "+disk+" of VM "+strconv.Itoa(r.VMID), err)
	}
	if upid != nil && *upid != "" {
		return a.waitTask(ctx, what+": grow disk "+disk, r.Node, *upid)
	}
	return nil
}

// waitUnlocked waits until no lock is on the VM: a clone that an earlier,
// interrupted create started is still running, and is never started again.
func (a *account) waitUnlocked(ctx context.Context, what string, r resource) (string, error) {
	id := strconv.Itoa(r.VMID)
	var status string
	err := adapter.WaitFor(ctx, a.clock, a.opts.task, what+": wait for VM "+id+"'s lock to go", func(ctx context.Context) (bool, error) {
		var cur current
		if err := a.c.Get(ctx, "/nodes/{node}/qemu/{vmid}/status/current", &cur, r.Node, id); err != nil {
			return false, fail("read VM "+id, err)
		}
		adapter.ReportState(ctx, "lock "+cur.Lock)
		status = cur.Status
		return cur.Lock == "", nil
	})
	return status, err
}
