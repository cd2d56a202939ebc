package proxmox

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

func createReq(name string) adapter.CreateRequest {
	return adapter.CreateRequest{Name: name, OfferID: "small", Image: "ubuntu-24.04-cloud", PowerOn: true}
}

func callFor(a *account, name string) adapter.Call {
	return adapter.Call{IdempotencyKey: adapter.IdempotencyKey(a.scope, name), Claim: adapter.NewClaim()}
}

func TestCreateLifecycle(t *testing.T) {
	f := newFake(t)
	a := testAccount(t, f, map[string]string{"ci_user": "ops", "ssh_public_keys": "ssh-ed25519 AAAAC3 ops@example"})
	ctx := context.Background()
	call := callFor(a, "web-1")
	m, err := a.Create(ctx, call, createReq("web-1"))
	if err != nil {
		t.Fatal(err)
	}
	if want := strconv.FormatUint(a.home(call.IdempotencyKey), 10); m.ID != want {
		t.Errorf("id %s, want the key's home slot %s", m.ID, want)
	}
	if m.State != adapter.StateRunning || m.IPv4 == "" || m.IPv6 == "" || m.Claim != call.Claim || !m.Managed || m.OfferID != "small" {
		t.Errorf("created: %+v", m)
	}
	vm := f.vms[mustAtoi(m.ID)]
	if vm.Tags != "compute;cm-c-"+call.Claim+";cm-unconfirmed" || vm.cfg["cores"] != "2" || vm.cfg["memory"] != "2048" || !strings.Contains(vm.cfg["scsi0"], "size=20G") ||
		vm.cfg["ciuser"] != "ops" || vm.cfg["sshkeys"] != "ssh-ed25519%20AAAAC3%20ops%40example%0A" {
		t.Errorf("VM as configured: tags %q cfg %v", vm.Tags, vm.cfg)
	}
	if ok, mk, _ := descMark.Read(vm.cfg["description"]); !ok || mk.Key != call.IdempotencyKey || mk.Claim != call.Claim {
		t.Errorf("mark: %q", vm.cfg["description"])
	}
	// A second create of the key finds it: no clone, the claim taken over.
	again := callFor(a, "web-1")
	m2, err := a.Create(ctx, again, createReq("web-1"))
	if err != nil || m2.ID != m.ID || !m2.Adopted || m2.PriorClaim != call.Claim || m2.Claim != again.Claim {
		t.Fatalf("rerun: %+v %v", m2, err)
	}
	if n := f.count("POST /nodes/{node}/qemu/{vmid}/clone"); n != 1 {
		t.Errorf("%d clones, want 1", n)
	}
	// Another fingerprint at the same key is refused.
	other := createReq("web-1")
	other.OfferID = "large"
	if _, err := a.Create(ctx, callFor(a, "web-1"), other); !adapter.Is(err, adapter.Conflict) {
		t.Errorf("other fingerprint: %v", err)
	}
	for _, act := range []adapter.PowerAction{adapter.PowerOff, adapter.PowerOn, adapter.PowerReboot, adapter.PowerShutdown} {
		if err := a.Power(ctx, m.ID, act); err != nil {
			t.Fatalf("%s: %v", act, err)
		}
	}
	if got, _ := a.Get(ctx, m.ID); got.State != adapter.StateStopped {
		t.Errorf("after shutdown: %s", got.State)
	}
	name := "web-2"
	if got, err := a.Update(ctx, m.ID, adapter.UpdateRequest{Name: &name}); err != nil || got.Name != "web-2" {
		t.Errorf("rename: %+v %v", got, err)
	}
	if err := a.Delete(ctx, m.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Get(ctx, m.ID); !adapter.IsNotFound(err) {
		t.Errorf("after delete: %v", err)
	}
	if err := a.Delete(ctx, m.ID); !adapter.IsNotFound(err) {
		t.Errorf("second delete: %v", err)
	}
}

// A create that asks for power off is done once configured: cm-new goes
// with the last write and the VM reads stopped, without ever being started.
func TestPowerOffCreateIsStopped(t *testing.T) {
	f := newFake(t)
	a := testAccount(t, f, nil)
	req := createReq("cold")
	req.PowerOn = false
	m, err := a.Create(context.Background(), callFor(a, "cold"), req)
	if err != nil {
		t.Fatal(err)
	}
	if m.State != adapter.StateStopped || m.RawState != "stopped" {
		t.Errorf("power-off create: %s (%s), want stopped", m.State, m.RawState)
	}
	if tags := f.vms[mustAtoi(m.ID)].Tags; strings.Contains(tags, tagNew) {
		t.Errorf("tags %q after the create, want no %s", tags, tagNew)
	}
	if n := f.count("POST /nodes/{node}/qemu/{vmid}/status/start"); n != 0 {
		t.Errorf("%d starts for a power-off create", n)
	}
}

// Until the create's last write a VM created and not started carries cm-new
// and reads pending, not stopped. A create cut short there returns the VM's
// id with its error, the listing shows it with the create's key and claim
// (what the Terraform layer looks for), and the rerun finishes it.
func TestCreatedNotStartedIsPending(t *testing.T) {
	f := newFake(t)
	a := testAccount(t, f, nil)
	req := createReq("cold")
	req.PowerOn = false
	call := callFor(a, "cold")
	// The first config write (flavor, tags) passes, the one dropping
	// cm-new fails.
	f.failRoute, f.failStatus, f.failReason, f.failN, f.failSkip = "POST /nodes/{node}/qemu/{vmid}/config", 500, "unexpected failure", 1, 1
	m, err := a.Create(context.Background(), call, req)
	if err == nil {
		t.Fatal("the create whose last write failed succeeded")
	}
	if want := strconv.FormatUint(a.home(call.IdempotencyKey), 10); m.ID != want {
		t.Fatalf("create cut short after the clone returned id %q, want %s", m.ID, want)
	}
	got, err := a.Get(context.Background(), m.ID)
	if err != nil || got.State != adapter.StatePending || got.RawState != "stopped" {
		t.Errorf("never started: %s (%s) %v, want pending (stopped)", got.State, got.RawState, err)
	}
	list, err := a.List(context.Background())
	if err != nil || len(list) != 1 || list[0].Key != call.IdempotencyKey || list[0].Claim != call.Claim || list[0].State != adapter.StatePending {
		t.Errorf("listed: %+v %v, want the create's key and claim, pending", list, err)
	}
	again, err := a.Create(context.Background(), callFor(a, "cold"), req)
	if err != nil || again.ID != m.ID || again.State != adapter.StateStopped {
		t.Fatalf("rerun: %+v %v", again, err)
	}
	if n := f.count("POST /nodes/{node}/qemu/{vmid}/clone"); n != 1 {
		t.Errorf("%d clones, want 1", n)
	}
	if err := a.Power(context.Background(), m.ID, adapter.PowerOn); err != nil {
		t.Fatal(err)
	}
	if got, _ := a.Get(context.Background(), m.ID); got.State != adapter.StateRunning {
		t.Errorf("after start: %s", got.State)
	}
}

// A create whose first config write (the one that tags the VM as ours)
// failed returns no machine: Terraform would keep it tainted, and the
// replacement's destroy refuse it as untagged. The rerun finds it by the
// key in its description and finishes it, with no second clone.
func TestCreateCutBeforeTheTagReturnsNoMachine(t *testing.T) {
	f := newFake(t)
	a := testAccount(t, f, nil)
	req := createReq("untagged-yet")
	f.failRoute, f.failStatus, f.failReason, f.failN = "POST /nodes/{node}/qemu/{vmid}/config", 500, "unexpected failure", 1
	m, err := a.Create(context.Background(), callFor(a, "untagged-yet"), req)
	if err == nil || m.ID != "" {
		t.Fatalf("create cut before the tag: %+v %v, want an error and no machine", m, err)
	}
	again, err := a.Create(context.Background(), callFor(a, "untagged-yet"), req)
	if err != nil || again.ID == "" || !again.Managed {
		t.Fatalf("rerun: %+v %v", again, err)
	}
	if n := f.count("POST /nodes/{node}/qemu/{vmid}/clone"); n != 1 {
		t.Errorf("%d clones, want 1", n)
	}
}

// A renamed VM's listed key is the new name's: the rename's mark writes it,
// and the listing derives it from the name.
func TestListedKeyFollowsTheName(t *testing.T) {
	f := newFake(t)
	a := testAccount(t, f, nil)
	ctx := context.Background()
	call := callFor(a, "old")
	m, err := a.Create(ctx, call, createReq("old"))
	if err != nil {
		t.Fatal(err)
	}
	name := "new"
	mark := adapter.Mark{Key: adapter.IdempotencyKey(a.scope, name), Fingerprint: m.Fingerprint, Claim: call.Claim}
	if _, err := a.Update(ctx, m.ID, adapter.UpdateRequest{Name: &name, Mark: &mark}); err != nil {
		t.Fatal(err)
	}
	list, err := a.List(ctx)
	if err != nil || len(list) != 1 || list[0].Key != mark.Key {
		t.Fatalf("listed: %+v %v, want key %s", list, err, mark.Key)
	}
	got, err := a.Get(ctx, m.ID)
	if err != nil || got.Key != list[0].Key {
		t.Errorf("read directly: key %s %v, listed %s", got.Key, err, list[0].Key)
	}
}

// Concurrent creates of one key clone once: PVE's "already exists" at the
// shared slot lets one win and the others finish its VM.
func TestConcurrentCreatesOfOneKey(t *testing.T) {
	f := newFake(t)
	a := testAccount(t, f, nil)
	b := testAccount(t, f, nil) // another process, its own queue
	var wg sync.WaitGroup
	ids := make([]string, 6)
	errs := make([]error, 6)
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			acc := a
			if i%2 == 1 {
				acc = b
			}
			m, err := acc.Create(context.Background(), callFor(acc, "same"), createReq("same"))
			ids[i], errs[i] = m.ID, err
		}()
	}
	wg.Wait()
	for i := range ids {
		if errs[i] != nil {
			t.Fatalf("create %d: %v", i, errs[i])
		}
	}
	vms := 0
	for _, v := range f.vms {
		if v.Template == 0 {
			vms++
		}
	}
	if vms != 1 {
		t.Errorf("%d VMs for one key, want 1", vms)
	}
}

// Twenty creates of different names from one template in one process get
// twenty VMIDs and never contend for the template's lock.
func TestTwentyCreatesOfOneTemplate(t *testing.T) {
	f := newFake(t)
	f.holdClone = make(chan struct{})
	a := testAccount(t, f, nil)
	var wg sync.WaitGroup
	ids := make(chan string, 20)
	errs := make(chan error, 20)
	for _, name := range apartNames(a, "node", 20) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, err := a.Create(context.Background(), callFor(a, name), createReq(name))
			ids <- m.ID
			errs <- err
		}()
	}
	// Release the clones one by one, each only once it was asked for.
	go func() {
		for i := range 20 {
			waitFor(t, func() bool { return f.count("POST /nodes/{node}/qemu/{vmid}/clone") > i })
			f.mu.Lock()
			hold := f.holdClone
			f.holdClone = make(chan struct{})
			f.mu.Unlock()
			close(hold)
		}
	}()
	wg.Wait()
	close(ids)
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	seen := map[string]bool{}
	for id := range ids {
		seen[id] = true
	}
	if len(seen) != 20 || f.contention != 0 || f.count("POST /nodes/{node}/qemu/{vmid}/clone") != 20 {
		t.Errorf("%d distinct VMIDs, %d lock contentions, %d clones", len(seen), f.contention, f.count("POST /nodes/{node}/qemu/{vmid}/clone"))
	}
}

// waitFor polls cond on the fake's state; it never sleeps in place of a
// condition, it only yields between checks. The deadline only keeps a
// broken condition from hanging the suite: it is far beyond what any
// condition takes on a machine whose cores are all busy.
func waitFor(t testing.TB, cond func() bool) {
	deadline := time.Now().Add(2 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Error("condition not reached")
			return
		}
		<-time.After(time.Millisecond)
	}
}

// A create cancelled while its clone runs leaves the clone to PVE; the
// next create finds the VM by its key, waits for the lock and finishes it.
func TestInterruptedCloneIsFinished(t *testing.T) {
	f := newFake(t)
	f.holdClone = make(chan struct{})
	a := testAccount(t, f, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := a.Create(ctx, callFor(a, "slow"), createReq("slow"))
		done <- err
	}()
	waitFor(t, func() bool { return f.count("GET /nodes/{node}/tasks/{upid}/status") > 0 })
	cancel()
	if err := <-done; err == nil {
		t.Fatal("the cancelled create succeeded")
	}
	b := testAccount(t, f, nil) // the rerun is another process
	rerun := make(chan error, 1)
	var m adapter.Machine
	go func() {
		var err error
		m, err = b.Create(context.Background(), callFor(b, "slow"), createReq("slow"))
		rerun <- err
	}()
	waitFor(t, func() bool { return f.count("GET /nodes/{node}/qemu/{vmid}/status/current") > 0 })
	close(f.holdClone)
	if err := <-rerun; err != nil {
		t.Fatal(err)
	}
	if n := f.count("POST /nodes/{node}/qemu/{vmid}/clone"); n != 1 || m.State != adapter.StateRunning {
		t.Errorf("%d clones, state %s", n, m.State)
	}
}

// A clone refused because another create of the key got the VMID first
// finishes the winner's VM instead of failing.
func TestCloneLostToTheSameKey(t *testing.T) {
	f := newFake(t)
	a := testAccount(t, f, nil)
	call := callFor(a, "raced")
	winner := adapter.Mark{Key: call.IdempotencyKey, Fingerprint: adapter.Fingerprint(createReq("raced")), Claim: adapter.NewClaim(), Unconfirmed: true}
	f.onClone = func(newid int) {
		f.onClone = nil
		f.vms[newid] = &fakeVM{resource: resource{VMID: newid, Name: "raced", Node: "pve2", Status: "stopped", Type: "qemu"},
			cfg: map[string]string{"description": withMark("", winner), "scsi0": "local-lvm:vm-1-disk-0,size=10G", "ide2": "local-lvm:cloudinit"}, agent: true, guest4: "192.0.2.9"}
	}
	m, err := a.Create(context.Background(), call, createReq("raced"))
	if err != nil || !m.Adopted || m.PriorClaim != winner.Claim || m.State != adapter.StateRunning {
		t.Fatalf("%+v %v", m, err)
	}
	if n := len(f.vms); n != 2 {
		t.Errorf("%d VMs and templates, want the template and one VM", n)
	}
}

func mustAtoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		panic(err)
	}
	return n
}

// A create waiting for its template's clone queue ends with its context,
// without sending its clone.
func TestCloneQueueHonoursTheContext(t *testing.T) {
	f := newFake(t)
	a := testAccount(t, f, nil)
	tpl := resource{VMID: 9000, Node: "pve1", Name: "ubuntu-24.04-cloud"}
	a.queue(tpl.VMID) <- struct{}{} // another create's clone holds the template
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.clone(ctx, "create VM", tpl, node{Node: "pve1"}, 100001, "queued", adapter.Mark{}) }()
	cancel()
	if err := within(t, "the create's return from the queue after its context ended", done); !errors.Is(err, context.Canceled) || !adapter.Is(err, adapter.Transient) {
		t.Errorf("cancelled in the queue: %v", err)
	}
	if n := f.count(routeClone); n != 0 {
		t.Errorf("%d clones sent", n)
	}
}

// within waits for ch for as long as the test may run: until shortly before
// go test's -timeout ends the binary, so that a hang fails naming what did not
// happen, and never sooner, however busy the machine is.
func within[T any](t *testing.T, what string, ch <-chan T) T {
	t.Helper()
	var expired <-chan time.Time
	if deadline, ok := t.Deadline(); ok {
		left := time.Until(deadline)
		timer := time.NewTimer(left - left/20)
		defer timer.Stop()
		expired = timer.C
	}
	select {
	case v := <-ch:
		return v
	case <-expired:
		t.Fatalf("%s did not happen before the test's deadline", what)
		panic("unreachable")
	}
}
