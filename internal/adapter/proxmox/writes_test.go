package proxmox

import (
	"context"
	"strconv"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// A VM under a lock of PVE's (a nightly backup) is left alone by delete
// and power: Transient, which the contract retries once the lock is gone,
// and not one request that would change it; so no stop of a VM whose
// backup is running.
func TestEmulatorLockedVMIsNotTouched(t *testing.T) {
	c := newConfTarget(t)
	a := c.open(t, nil)
	ctx := context.Background()
	m, err := a.Create(ctx, callFor(a, "backup"), emuReq("backup"))
	if err != nil {
		t.Fatal(err)
	}
	vmid, _ := strconv.Atoi(m.ID)
	if err := c.emu.SetConfigLock(vmid, "backup"); err != nil {
		t.Fatal(err)
	}
	c.emu.ResetStats()
	if err := a.Delete(ctx, m.ID); !adapter.Is(err, adapter.Transient) {
		t.Errorf("delete under a backup lock: %v, want Transient", err)
	}
	if err := a.Power(ctx, m.ID, adapter.PowerReboot); !adapter.Is(err, adapter.Transient) {
		t.Errorf("reboot under a backup lock: %v, want Transient", err)
	}
	for route, n := range c.emu.Stats() {
		if route != "GET /cluster/resources" && n > 0 {
			t.Errorf("%d requests %s to a locked VM", n, route)
		}
	}
	if v, ok := c.emu.VM(vmid); !ok || v.Status != statusRunning {
		t.Errorf("the locked VM was changed: %+v %v", v, ok)
	}
}
