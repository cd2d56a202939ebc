package instance_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	pveemu "github.com/seedcompute/terraform-provider-compute/internal/emulator/proxmox"
)

// TestProxmoxImportTakesFlavorLater: a VM imported through an account
// none of whose flavors has its cores and memory is in state without an
// offer_id, and its account there is the one without the flavor (an import
// id, or an import block's identity, written before the flavor was added).
// Once the configured account has a flavor of the VM's size and the
// instance names it, the plan takes it in place (with the mark and the
// re-point) instead of replacing the VM, the apply records it, and the next
// plan is empty. A VM of another size with the same offer_id is replaced.
func TestProxmoxImportTakesFlavorLater(t *testing.T) {
	t.Parallel()
	p := acctest.NewProxmox(t)
	seed := func(name string, cores, mib int) int {
		vmid, err := p.PVE.AddVM(pveemu.VMSeed{Name: name, Node: "pve1", Running: true, Cores: cores, MemoryMiB: mib, DiskGiB: 8})
		if err != nil {
			t.Fatal(err)
		}
		return vmid
	}
	vmid, odd := seed("r-vm", 1, 1024), seed("odd-vm", 4, 4096)
	c := acctest.NewCLI(t, p.Account())
	c.MustRun("apply", "-auto-approve", "-input=false")
	before := accountID(t, c)
	withTiny := strings.Replace(p.Account(), "large = {", "tiny  = { cores = 1, memory_mib = 1024, disk_gib = 8 }\n      large = {", 1)
	instance := func(resource, name string) string {
		return fmt.Sprintf(`
resource "compute_instance" %q {
  account  = compute_provider_account.pve.id
  name     = %q
  offer_id = "tiny"
  image    = %q
}
`, resource, name, acctest.ProxmoxTemplate)
	}
	c.Config(withTiny + instance("vm", "r-vm") + instance("odd", "odd-vm"))
	c.MustRun("import", "-input=false", "compute_instance.vm", before+"/"+strconv.Itoa(vmid))
	c.MustRun("import", "-input=false", "compute_instance.odd", before+"/"+strconv.Itoa(odd))
	if st := c.MustRun("state", "show", "compute_instance.vm"); regexp.MustCompile(`(?m)^\s+offer_id\s+=`).MatchString(st) {
		t.Fatalf("the import read an offer_id through an account without a flavor of the VM's size:\n%s", st)
	}

	out := c.MustRun("plan", "-input=false")
	if !strings.Contains(out, "compute_instance.vm will be updated in-place") || strings.Contains(out, "compute_instance.vm must be replaced") {
		t.Errorf("the VM of flavor tiny's size should take offer_id tiny in place:\n%s", out)
	}
	if !strings.Contains(out, "compute_instance.odd must be replaced") {
		t.Errorf("the VM of another size should be replaced for offer_id tiny:\n%s", out)
	}
	c.MustRun("state", "rm", "compute_instance.odd")
	c.Config(withTiny + instance("vm", "r-vm"))
	c.MustRun("apply", "-auto-approve", "-input=false")
	if st := c.MustRun("state", "show", "compute_instance.vm"); !regexp.MustCompile(`(?m)^\s+offer_id\s+= "tiny"`).MatchString(st) {
		t.Errorf("the apply did not record offer_id tiny:\n%s", st)
	}
	vm, _ := p.PVE.VM(vmid)
	if !strings.Contains(vm.Config["tags"], "compute") {
		t.Errorf("the apply did not mark VM %d: tags %q", vmid, vm.Config["tags"])
	}
	emptyPlan(t, c)
}
