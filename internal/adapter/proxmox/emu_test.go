package proxmox

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	pveemu "github.com/seedcompute/terraform-provider-compute/internal/emulator/proxmox"
)

// The design's promises, proven against the emulator: its clones hold the
// template's lock file for CloneDuration and contend for it as PVE does.

const routeClone = "POST /nodes/{node}/qemu/{vmid}/clone"

// open opens the target's account; extra settings override.
func (c confTarget) open(t testing.TB, extra map[string]string) *account {
	t.Helper()
	settings := map[string]string{}
	for k, v := range c.Settings {
		settings[k] = v
	}
	for k, v := range extra {
		settings[k] = v
	}
	norm, err := c.Definition.Normalize(settings, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := newAccount(norm, c.Env, testOptions())
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func emuReq(name string) adapter.CreateRequest {
	return adapter.CreateRequest{Name: name, OfferID: "small", Image: "ubuntu-24.04-cloud", PowerOn: true}
}

func TestEmulatorOneKeyOneClone(t *testing.T) {
	c := newConfTarget(t)
	accounts := []*account{c.open(t, nil), c.open(t, nil)} // two processes
	var wg sync.WaitGroup
	errs := make([]error, 6)
	ids := make([]string, 6)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a := accounts[i%2]
			m, err := a.Create(context.Background(), callFor(a, "one"), emuReq("one"))
			ids[i], errs[i] = m.ID, err
		}()
	}
	wg.Wait()
	for i, err := range errs {
		// Another process's clone holds the template's lock: PVE's lock
		// timeout is Transient, which the contract retries.
		if err != nil && !adapter.Is(err, adapter.Transient) {
			t.Fatalf("create %d: %v", i, err)
		}
	}
	vms := 0
	for _, v := range c.emu.VMs() {
		if !v.Template {
			vms++
		}
	}
	if vms != 1 {
		t.Errorf("%d VMs for one key, want 1", vms)
	}
}

func TestEmulatorTwentyCreatesOfOneTemplate(t *testing.T) {
	c := newConfTarget(t)
	a := c.open(t, nil)
	var wg sync.WaitGroup
	var mu sync.Mutex
	seen := map[string]bool{}
	names := apartNames(a, "fleet", 20)
	start := time.Now()
	for _, name := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m, err := a.Create(context.Background(), callFor(a, name), emuReq(name))
			if err != nil {
				t.Errorf("%s: %v", name, err)
				return
			}
			mu.Lock()
			seen[m.ID] = true
			mu.Unlock()
		}()
	}
	wg.Wait()
	t.Logf("20 creates in %s; clones %d, lock waits %d", time.Since(start).Round(time.Millisecond), c.emu.Stats()[routeClone], c.emu.LockWaits())
	if len(seen) != 20 || c.emu.Stats()[routeClone] != 20 || c.emu.LockWaits() != 0 || c.emu.LockTimeouts() != 0 {
		t.Errorf("%d distinct VMIDs, %d clones, %d lock waits, %d lock timeouts", len(seen), c.emu.Stats()[routeClone], c.emu.LockWaits(), c.emu.LockTimeouts())
	}
}

func TestEmulatorInterruptedCloneIsFinished(t *testing.T) {
	c := newConfTarget(t)
	c.emu.HoldClones()
	a := c.open(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := a.Create(ctx, callFor(a, "killed"), emuReq("killed"))
		done <- err
	}()
	waitFor(t, func() bool { return c.emu.HeldClones() == 1 })
	cancel()
	if err := <-done; err == nil {
		t.Fatal("the cancelled create succeeded")
	}
	b := c.open(t, nil)
	rerun := make(chan error, 1)
	var m adapter.Machine
	go func() {
		var err error
		m, err = b.Create(context.Background(), callFor(b, "killed"), emuReq("killed"))
		rerun <- err
	}()
	waitFor(t, func() bool { return c.emu.Stats()["GET /nodes/{node}/qemu/{vmid}/status/current"] > 0 })
	c.emu.ReleaseClones()
	if err := <-rerun; err != nil {
		t.Fatal(err)
	}
	if n := c.emu.Stats()[routeClone]; n != 1 || m.State == adapter.StateStopped {
		t.Errorf("%d clones, state %s", n, m.State)
	}
	waitRunning(t, b, m.ID)
}

// waitRunning reads the VM until its guest booted and reported an address.
func waitRunning(t *testing.T, a *account, id string) {
	t.Helper()
	waitFor(t, func() bool {
		m, err := a.Get(context.Background(), id)
		return err == nil && m.State == adapter.StateRunning
	})
}

func TestEmulatorUntaggedRefused(t *testing.T) {
	c := newConfTarget(t)
	id, err := c.emu.AddVM(pveemu.VMSeed{Name: "by-hand", Node: "pve1", Running: true, Tags: "prod"})
	if err != nil {
		t.Fatal(err)
	}
	a := c.open(t, nil)
	vmid := strconv.Itoa(id)
	if err := a.Delete(context.Background(), vmid); !adapter.Is(err, adapter.AccessDenied) {
		t.Errorf("delete: %v", err)
	}
	if err := a.Power(context.Background(), vmid, adapter.PowerOff); !adapter.Is(err, adapter.AccessDenied) {
		t.Errorf("power off: %v", err)
	}
	if v, ok := c.emu.VM(id); !ok || v.Status != "running" {
		t.Errorf("the VM was touched: %+v %v", v, ok)
	}
}

func TestEmulatorSilentAgent(t *testing.T) {
	c := newConfTarget(t)
	// The VM is made and seen running with the default agent_timeout: on a
	// busy machine an agent that answers may take longer than 200ms, and
	// only the refresh below is about a silent one.
	a := c.open(t, nil)
	m, err := a.Create(context.Background(), callFor(a, "mute"), emuReq("mute"))
	if err != nil {
		t.Fatal(err)
	}
	waitRunning(t, a, m.ID)
	if err := c.emu.SetAgentFault(0, pveemu.AgentHangs); err != nil {
		t.Fatal(err)
	}
	b := c.open(t, map[string]string{"agent_timeout": "200ms"}) // a new refresh
	c.emu.ResetStats()
	// The emulator holds the agent request until its client leaves. With
	// every other request bounded by an hour, only agent_timeout can end it
	// before the guard does, and the lower bound says it waited that long;
	// the guard turns a read agent_timeout does not bound into a failure
	// rather than a hang, on any machine.
	b.c.Timeout = time.Hour
	guard, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	start := time.Now()
	got, err := b.Get(guard, m.ID)
	if took := time.Since(start); err != nil || got.State != adapter.StatePending || got.HasAddress() ||
		got.RawState != "running (guest agent: no answer within 200ms)" || took < 200*time.Millisecond {
		t.Fatalf("silent agent: %+v %v after %s", got, err, took)
	}
	if _, err := b.Get(context.Background(), m.ID); err != nil {
		t.Fatal(err)
	}
	if n := c.emu.Stats()["GET /nodes/{node}/qemu/{vmid}/agent/network-get-interfaces"]; n != 1 {
		t.Errorf("%d agent requests, want 1", n)
	}
}

func TestEmulatorPinMismatch(t *testing.T) {
	c := newConfTarget(t)
	a := c.open(t, map[string]string{"tls_fingerprint": strings.Repeat("0F", 32)})
	before := c.emu.Authorized()
	err := a.Check(context.Background())
	if !adapter.Is(err, adapter.InvalidConfig) || !strings.Contains(err.Error(), c.emu.CertFingerprint()) {
		t.Errorf("pin mismatch: %v", err)
	}
	if _, err := a.Create(context.Background(), callFor(a, "x"), emuReq("x")); !adapter.Is(err, adapter.InvalidConfig) {
		t.Errorf("create: %v", err)
	}
	if n := c.emu.Authorized() - before; n != 0 {
		t.Errorf("%d requests with a token reached the emulator", n)
	}
}

// User data goes to the node as a 0600 snippet that cicustom names, and
// the delete removes it.
func TestEmulatorSnippets(t *testing.T) {
	c := newConfTarget(t)
	a := c.open(t, nil)
	req := emuReq("ud")
	req.UserData = "#cloud-config\nruncmd: [echo ud-sentinel-4417]\n"
	m, err := a.Create(context.Background(), callFor(a, "ud"), req)
	if err != nil {
		t.Fatal(err)
	}
	vmid := mustAtoi(m.ID)
	data, mode, ok := c.emu.Snippet(m.Location, snippetName(vmid))
	if !ok || string(data) != req.UserData || mode.Perm() != 0o600 {
		t.Fatalf("snippet: %v %o", ok, mode)
	}
	if err := a.Delete(context.Background(), m.ID); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := c.emu.Snippet(m.Location, snippetName(vmid)); ok {
		t.Error("the snippet outlived its VM")
	}
}

// A nightly backup locks a running VM without stopping its guest: the VM
// keeps its address and reads as running, through the listing and
// directly, and only its actions wait for the lock.
func TestEmulatorBackupLockKeepsRunning(t *testing.T) {
	c := newConfTarget(t)
	a := c.open(t, nil)
	m, err := a.Create(context.Background(), callFor(a, "backed"), emuReq("backed"))
	if err != nil {
		t.Fatal(err)
	}
	waitRunning(t, a, m.ID)
	vmid, _ := strconv.Atoi(m.ID)
	if err := c.emu.SetConfigLock(vmid, "backup"); err != nil {
		t.Fatal(err)
	}
	b := c.open(t, nil)
	list, err := b.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	direct, err := b.Get(context.Background(), m.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, got := range append(list, direct) {
		if got.ID == m.ID && (got.State != adapter.StateRunning || !got.HasAddress() || got.RawState != "running (locked: backup)") {
			t.Errorf("under a backup lock: %s %q, address %q", got.State, got.RawState, got.IPv4)
		}
	}
}

// Creates in parallel spread over the nodes: the second create picks its
// node while the first one's clone is held, before the first VM runs and
// GET /nodes counts its memory, so only the memory the first one placed
// keeps the second off the same node.
func TestParallelCreatesSpreadOverNodes(t *testing.T) {
	c := newConfTarget(t)
	a := c.open(t, nil)
	c.emu.HoldClones()
	ids := make(chan string, 2)
	create := func(name string) {
		m, err := a.Create(context.Background(), callFor(a, name), emuReq(name))
		if err != nil {
			t.Error(err)
		}
		ids <- m.ID
	}
	listings := func() int { return c.emu.Stats()["GET /cluster/resources"] }
	before := listings()
	go create("spread-a")
	waitFor(t, func() bool { return c.emu.HeldClones() == 1 })
	// The second create's plan and probe each list the cluster once; by
	// the second it has picked its node, and waits on the template's queue.
	go create("spread-b")
	waitFor(t, func() bool { return listings() >= before+4 })
	c.emu.ReleaseClones() // and holds no more
	nodes := map[string]bool{}
	for range 2 {
		id := <-ids
		vmid, _ := strconv.Atoi(id)
		v, ok := c.emu.VM(vmid)
		if !ok {
			t.Fatalf("VM %s is not there", id)
		}
		nodes[v.Node] = true
	}
	if len(nodes) != 2 {
		t.Errorf("two parallel creates on nodes %v, want one on each", nodes)
	}
}

// apartNames returns n names whose keys' home slots are neither equal nor
// next to each other, so that every create clones once: two keys that
// share a slot make one clone more (the loser's "already exists"), which
// is right but would make a count of clones depend on the emulator's
// random port, part of the account's scope.
func apartNames(a *account, prefix string, n int) []string {
	var names []string
	taken := map[uint64]bool{}
	for i := 0; len(names) < n; i++ {
		name := fmt.Sprintf("%s-%02d", prefix, i)
		h := a.home(adapter.IdempotencyKey(a.scope, name))
		if taken[h] || taken[h-1] || taken[h+1] {
			continue
		}
		taken[h] = true
		names = append(names, name)
	}
	return names
}
