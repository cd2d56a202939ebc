package proxmox_test

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/proxmox"
)

// Eight clones to one VMID, all past the first look and waiting for the
// template's lock file together: the one that gets it first wins, the
// others find the VMID taken when their turn comes.
func TestConcurrentClonesToOneVMIDOneWins(t *testing.T) {
	h := start(t, proxmox.Options{CloneDuration: time.Millisecond, LockTimeout: 10 * time.Second})
	release, err := h.e.HoldLockFile(9000)
	if err != nil {
		t.Fatal(err)
	}
	const n = 8
	answers := make([]answer, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answers[i] = h.call("POST", "/nodes/pve1/qemu/9000/clone", "newid", "4242", "name", fmt.Sprintf("c%d", i), "description", fmt.Sprintf("key %d", i))
		}()
	}
	for h.e.LockWaits() < n {
		runtime.Gosched()
	}
	release()
	wg.Wait()
	won := 0
	for _, a := range answers {
		switch a.status {
		case http.StatusOK:
			won++
			if _, err := h.e.WaitTask(a.data().(string), 5*time.Second); err != nil {
				t.Fatal(err)
			}
		default:
			expectError(t, a, 500, "unable to create VM 4242 - VM 4242 already exists")
		}
	}
	if won != 1 {
		t.Fatalf("%d clones to VM 4242 succeeded, want exactly 1", won)
	}
	// A clone arriving once the VMID is taken is refused at once, even
	// while the template's lock file is held.
	release, err = h.e.HoldLockFile(9000)
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	before := h.e.LockWaits()
	expectError(t, h.call("POST", "/nodes/pve1/qemu/9000/clone", "newid", "4242"), 500, "unable to create VM 4242 - VM 4242 already exists")
	if h.e.LockWaits() != before {
		t.Fatal("a clone to a taken VMID waited for the lock")
	}
}

func TestCloneHoldsLocks(t *testing.T) {
	h := start(t, proxmox.Options{CloneDuration: time.Nanosecond, LockTimeout: 50 * time.Millisecond})
	h.e.HoldClones()
	upid := h.ok("POST", "/nodes/pve1/qemu/9000/clone", "newid", "300", "name", "a").(string)
	// The new VM is locked "clone": writes and power are refused.
	expectError(t, h.call("POST", "/nodes/pve1/qemu/300/config", "cores", "2"), 500, "VM 300 is locked (clone)")
	expectError(t, h.call("POST", "/nodes/pve1/qemu/300/status/start"), 500, "VM 300 is locked (clone)")
	expectError(t, h.call("DELETE", "/nodes/pve1/qemu/300"), 500, "VM 300 is locked (clone)")
	if st := h.ok("GET", "/nodes/pve1/qemu/300/status/current").(map[string]any); st["lock"] != "clone" {
		t.Fatalf("status/current lock = %v, want clone", st["lock"])
	}
	// The template's lock file is held: a second clone waits LockTimeout
	// and fails with PVE's text.
	before := h.e.LockWaits()
	expectError(t, h.call("POST", "/nodes/pve1/qemu/9000/clone", "newid", "301", "name", "b"), 500,
		"can't lock file '/var/lock/qemu-server/lock-9000.conf' - got timeout")
	if h.e.LockWaits() != before+1 || h.e.LockTimeouts() != 1 {
		t.Fatalf("lock waits %d (before %d), timeouts %d", h.e.LockWaits(), before, h.e.LockTimeouts())
	}
	if _, ok := h.e.VM(301); ok {
		t.Fatal("the clone that timed out made VM 301")
	}
	if got := h.e.ReleaseClones(); got != 1 {
		t.Fatalf("ReleaseClones() = %d, want 1", got)
	}
	if exit, err := h.e.WaitTask(upid, 5*time.Second); err != nil || exit != "OK" {
		t.Fatalf("clone task: %q, %v", exit, err)
	}
	h.ok("POST", "/nodes/pve1/qemu/300/config", "cores", "2")
	h.mustTask("POST", "/nodes/pve1/qemu/9000/clone", "newid", "301", "name", "b")
	if h.e.LockTimeouts() != 1 {
		t.Fatalf("lock timeouts %d after the lock was free", h.e.LockTimeouts())
	}
}

func TestExternalLocks(t *testing.T) {
	h := start(t, proxmox.Options{LockTimeout: 30 * time.Millisecond})
	release, err := h.e.HoldLockFile(9000)
	if err != nil {
		t.Fatal(err)
	}
	expectError(t, h.call("POST", "/nodes/pve1/qemu/9000/clone", "newid", "400"), 500,
		"can't lock file '/var/lock/qemu-server/lock-9000.conf' - got timeout")
	release()
	if err := h.e.SetConfigLock(9000, "backup"); err != nil {
		t.Fatal(err)
	}
	expectError(t, h.call("POST", "/nodes/pve1/qemu/9000/clone", "newid", "400"), 500, "VM 9000 is locked (backup)")
	if err := h.e.SetConfigLock(9000, ""); err != nil {
		t.Fatal(err)
	}
	h.mustTask("POST", "/nodes/pve1/qemu/9000/clone", "newid", "400")
}

// A clone task runs to its end though the client that started it has
// gone, as a PVE worker does when the provider is killed.
func TestCloneTaskOutlivesItsClient(t *testing.T) {
	h := start(t, proxmox.Options{CloneDuration: 50 * time.Millisecond})
	h.e.HoldClones()
	ctx, cancel := context.WithCancel(context.Background())
	a, err := h.do(ctx, "POST", "/nodes/pve1/qemu/9000/clone", url.Values{"newid": {"500"}, "name": {"k"}})
	if err != nil || a.status != 200 {
		t.Fatalf("clone: %v %v", a, err)
	}
	cancel()
	h.client.CloseIdleConnections()
	h.e.ReleaseClones()
	if exit, err := h.e.WaitTask(a.data().(string), 5*time.Second); err != nil || exit != "OK" {
		t.Fatalf("clone task after its client left: %q, %v", exit, err)
	}
	if v, _ := h.e.VM(500); v.Lock != "" {
		t.Fatalf("VM 500 still locked %q", v.Lock)
	}
}

func TestFailedCloneTaskRemovesTheVM(t *testing.T) {
	h := start(t, proxmox.Options{CloneDuration: time.Millisecond})
	h.e.FailNextClone("clone failed: storage 'local-lvm' is full")
	if _, exit := h.task("POST", "/nodes/pve1/qemu/9000/clone", "newid", "600"); exit != "clone failed: storage 'local-lvm' is full" {
		t.Fatalf("exit %q", exit)
	}
	if _, ok := h.e.VM(600); ok {
		t.Fatal("a failed clone left its VM")
	}
	log := h.ok("GET", "/nodes/pve1/tasks/"+url.PathEscape(h.lastTask())+"/log").([]any)
	if last := log[len(log)-1].(map[string]any)["t"]; last != "TASK ERROR: clone failed: storage 'local-lvm' is full" {
		t.Fatalf("last log line %v", last)
	}
}
