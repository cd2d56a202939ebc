package instance_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// pveWrites counts the requests that change a VM or take a VMID.
func pveWrites(p *acctest.Proxmox) int {
	n := 0
	for route, c := range p.PVE.Stats() {
		if !strings.HasPrefix(route, "GET ") {
			n += c
		}
	}
	return n
}

// TestProxmoxSecondStateRefused: on Proxmox, the holder's plan confirms its
// claim (description and tag); a new workspace with the same configuration
// is refused before anything is written, naming the VM; its destroy leaves
// the VM; the holder plans clean.
func TestProxmoxSecondStateRefused(t *testing.T) {
	t.Parallel()
	p := acctest.NewProxmox(t)
	c := acctest.NewCLI(t, p.Account()+p.Instance("web"))
	c.MustRun("apply", "-auto-approve", "-input=false")
	vm, ok := p.Named("web")
	if !ok || !strings.Contains(vm.Config["description"], "compute-unconfirmed: true") || !strings.Contains(vm.Config["tags"], "cm-unconfirmed") {
		t.Fatalf("the created VM is %+v, want its claim unconfirmed in description and tags", vm)
	}
	emptyPlan(t, c)
	vm, _ = p.Named("web")
	if strings.Contains(vm.Config["description"], "compute-unconfirmed") || strings.Contains(vm.Config["tags"], "cm-unconfirmed") {
		t.Fatalf("the holder's plan did not confirm the claim: %+v", vm.Config)
	}

	c.MustRun("workspace", "new", "staging")
	before := pveWrites(p)
	out, err := c.Run("apply", "-auto-approve", "-input=false")
	if err == nil || !acctest.Match(fmt.Sprintf(`machine %d \("web"\) on account "[^"]+" \(proxmox at [^)]+\) already carries this resource's key.*nothing was written`, vm.VMID)).MatchString(out) {
		t.Fatalf("the second workspace's apply: %v, want the Conflict naming VM %d:\n%s", err, vm.VMID, out)
	}
	if n := pveWrites(p) - before; n != 0 {
		t.Errorf("the refused create sent %d writes: %v", n, p.PVE.Stats())
	}
	c.MustRun("destroy", "-auto-approve", "-input=false")
	if now, ok := p.Named("web"); !ok || now.VMID != vm.VMID || now.Config["description"] != vm.Config["description"] || now.Config["tags"] != vm.Config["tags"] {
		t.Fatalf("the second workspace touched VM %d: before %+v, after %+v", vm.VMID, vm, now)
	}
	c.MustRun("workspace", "select", "default")
	emptyPlan(t, c)
	c.MustRun("destroy", "-auto-approve", "-input=false")
	if err := p.CheckDestroy(nil); err != nil {
		t.Error(err)
	}
}
