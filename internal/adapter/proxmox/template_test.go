package proxmox

import (
	"context"
	"errors"
	"net/url"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	pveemu "github.com/seedcompute/terraform-provider-compute/internal/emulator/proxmox"
)

// TestEmulatorTemplateWithoutStorageLeavesNothing: a template without a
// cloud-init drive whose boot disk is a passed-through device names no
// storage the clone's cloud-init drive could go to, and the account sets
// none; the create is refused on image before any write, so no clone is
// made and no VM is left for a delete that would refuse it as untagged.
func TestEmulatorTemplateWithoutStorageLeavesNothing(t *testing.T) {
	c := newConfTarget(t)
	ctx := context.Background()
	id, err := c.emu.AddVM(pveemu.VMSeed{Name: "passthrough", Node: "pve1", Template: true})
	if err != nil {
		t.Fatal(err)
	}
	a := c.open(t, nil)
	// Through the API, as an administrator would have set it up.
	if err := a.setConfig(ctx, "pve1", id, url.Values{"scsi0": {"/dev/disk/by-id/nvme-template,size=10G"}}); err != nil {
		t.Fatal(err)
	}
	before := len(c.emu.VMs())
	req := emuReq("web")
	req.Image = "passthrough"
	_, err = a.Create(ctx, callFor(a, "web"), req)
	var e *adapter.Error
	if !adapter.Is(err, adapter.InvalidInput) || !errors.As(err, &e) || e.Field != adapter.FieldImage || !strings.Contains(e.Message, "passthrough") {
		t.Errorf("create: %v, want InvalidInput on image naming the template", err)
	}
	if n := c.emu.Stats()[routeClone]; n != 0 {
		t.Errorf("%d clones for a template that was refused", n)
	}
	if n := len(c.emu.VMs()); n != before {
		t.Errorf("%d VMs after the refused create, %d before", n, before)
	}
}
