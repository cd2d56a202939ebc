package instance_test

import (
	"strconv"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestProxmoxUntaggedRefused: a VM whose compute tag was removed behind
// Terraform's back, while a state held it, is never powered, marked again
// or deleted: a power switch and a destroy both fail, naming the VM and
// the way out, and the VM stays as it was. Tagged again, it is destroyed as
// usual.
func TestProxmoxUntaggedRefused(t *testing.T) {
	t.Parallel()
	p := acctest.NewProxmox(t)
	c := acctest.NewCLI(t, p.Account()+p.Instance("web"))
	c.MustRun("apply", "-auto-approve", "-input=false")
	vm, ok := p.Named("web")
	if !ok || vm.Status != "running" {
		t.Fatalf("the apply made %+v, want VM web running", vm)
	}
	tags := vm.Config["tags"]
	p.SetTags(t, vm.VMID, "")
	untouched := func(after string) {
		t.Helper()
		now, ok := p.PVE.VM(vm.VMID)
		if !ok || now.Status != "running" || now.Config["tags"] != "" {
			t.Errorf("after %s the VM is %+v, want it running and untagged, untouched", after, now)
		}
	}
	id := strconv.Itoa(vm.VMID)
	refusal := acctest.Match(`VM ` + id + ` \("web"\) is not tagged "compute", so it is not managed by the provider and is left alone; ` +
		`to manage it, import it .* or tag it "compute" in PVE if the provider created it`)

	c.Config(p.Account() + p.Instance("web", `power = "off"`))
	out, err := c.Run("apply", "-auto-approve", "-input=false")
	if err == nil || !refusal.MatchString(out) {
		t.Errorf("a power switch of the untagged VM: %v, want it refused, naming the VM and the way out:\n%s", err, out)
	}
	untouched("the power switch")

	c.Config(p.Account() + p.Instance("web"))
	out, err = c.Run("destroy", "-auto-approve", "-input=false")
	if err == nil || !refusal.MatchString(out) {
		t.Errorf("a destroy of the untagged VM: %v, want it refused, naming the VM and the way out:\n%s", err, out)
	}
	untouched("the destroy")

	p.SetTags(t, vm.VMID, tags)
	c.MustRun("destroy", "-auto-approve", "-input=false")
	if err := p.CheckDestroy(nil); err != nil {
		t.Error(err)
	}
}
