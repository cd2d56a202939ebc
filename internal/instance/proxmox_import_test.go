package instance_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	pveemu "github.com/seedcompute/terraform-provider-compute/internal/emulator/proxmox"
)

// seedLegacy is a VM someone made in the GUI, of flavor small's size, with
// a description and a tag of their own: no compute tag, no mark.
func seedLegacy(t *testing.T, p *acctest.Proxmox, name string) int {
	t.Helper()
	vmid, err := p.PVE.AddVM(pveemu.VMSeed{
		Name: name, Node: "pve1", Running: true, Tags: "prod",
		Description: "database of the ops team", Cores: 2, MemoryMiB: 2048, DiskGiB: 20,
	})
	if err != nil {
		t.Fatal(err)
	}
	return vmid
}

// accountID is the id of compute_provider_account.pve in the state.
func accountID(t *testing.T, c *acctest.CLI) string {
	t.Helper()
	var st struct {
		Values struct {
			RootModule struct {
				Resources []struct {
					Address string
					Values  struct{ ID string }
				}
			} `json:"root_module"`
		}
	}
	if err := json.Unmarshal([]byte(c.MustRun("show", "-json")), &st); err != nil {
		t.Fatal(err)
	}
	for _, r := range st.Values.RootModule.Resources {
		if r.Address == "compute_provider_account.pve" {
			return r.Values.ID
		}
	}
	t.Fatal("no compute_provider_account.pve in the state")
	return ""
}

// markedLegacy asserts that the imported VM now carries the mark beside
// what its owner wrote: the compute tag with prod, the description block
// after their text, and that it still runs.
func markedLegacy(t *testing.T, p *acctest.Proxmox, vmid int) {
	t.Helper()
	vm, ok := p.PVE.VM(vmid)
	if !ok {
		t.Fatalf("VM %d is gone after the import", vmid)
	}
	tags := ";" + vm.Config["tags"] + ";"
	desc := vm.Config["description"]
	if !strings.Contains(tags, ";compute;") || !strings.Contains(tags, ";prod;") {
		t.Errorf("VM %d after the apply has tags %q, want compute beside prod", vmid, vm.Config["tags"])
	}
	if !strings.HasPrefix(desc, "database of the ops team") || !regexp.MustCompile(`(?m)^compute-managed: v1$`).MatchString(desc) ||
		!regexp.MustCompile(`(?m)^compute-key: [0-9a-f]{32}$`).MatchString(desc) {
		t.Errorf("VM %d after the apply has description %q, want the owner's text and the mark", vmid, desc)
	}
	if vm.Status != "running" {
		t.Errorf("VM %d is %s after the import, want running", vmid, vm.Status)
	}
}

func legacyInstance(name string) string {
	return fmt.Sprintf(`
resource "compute_instance" "legacy" {
  account  = compute_provider_account.pve.id
  name     = %q
  offer_id = "small"
  image    = %q
}
`, name, acctest.ProxmoxTemplate)
}

// TestProxmoxImportGeneratedConfig adopts a VM made outside Terraform the
// way a user does: an import block and plan -generate-config-out. PVE does
// not record what a VM was made from, so the generated configuration has
// every attribute but image, and the plan says image is missing; with the
// image written in, the plan imports the VM and only writes the mark (no
// replacement); the apply writes it (the compute tag and the description
// block, the owner's text and tag kept); the next plan is empty; destroy
// deletes the VM.
func TestProxmoxImportGeneratedConfig(t *testing.T) {
	t.Parallel()
	p := acctest.NewProxmox(t)
	vmid := seedLegacy(t, p, "legacy")
	c := acctest.NewCLI(t, p.Account())
	c.MustRun("apply", "-auto-approve", "-input=false")
	c.Write("import.tf", fmt.Sprintf(`
import {
  to = compute_instance.legacy
  id = "${compute_provider_account.pve.id}/%d"
}
`, vmid))
	out, err := c.Run("plan", "-input=false", "-generate-config-out=generated.tf")
	gen := c.Read("generated.tf")
	if err == nil || !acctest.Match(`Missing Configuration for Required Attribute .* the image attribute`).MatchString(out) {
		t.Errorf("the plan of the generated configuration: %v, want it to ask for the image only:\n%s", err, out)
	}
	for _, attr := range []string{"account", "name", "offer_id", "location", "power"} {
		if !regexp.MustCompile(`(?m)^\s+` + attr + `\s+=`).MatchString(gen) {
			t.Errorf("generated configuration lacks %s:\n%s", attr, gen)
		}
	}
	if !regexp.MustCompile(`offer_id\s+= "small"`).MatchString(gen) || !regexp.MustCompile(`location\s+= "pve1"`).MatchString(gen) {
		t.Errorf("generated configuration does not read the VM's flavor and node:\n%s", gen)
	}
	image := regexp.MustCompile(`(?m)^(\s+)image\s+= null.*$`)
	if !image.MatchString(gen) {
		t.Fatalf("generated configuration has no image line to fill in:\n%s", gen)
	}
	c.Write("generated.tf", image.ReplaceAllString(gen, `${1}image = "`+acctest.ProxmoxTemplate+`"`))
	out = c.MustRun("plan", "-input=false")
	if !regexp.MustCompile(`managed\s+= false -> true`).MatchString(out) || !strings.Contains(out, "1 to import, 0 to add, 1 to change, 0 to destroy") {
		t.Errorf("the plan should import the VM and only write its mark:\n%s", out)
	}
	if vm, _ := p.PVE.VM(vmid); strings.Contains(vm.Config["tags"], "compute") {
		t.Fatalf("the plan wrote to the VM: tags %q", vm.Config["tags"])
	}
	c.MustRun("apply", "-auto-approve", "-input=false")
	markedLegacy(t, p, vmid)
	emptyPlan(t, c)
	c.MustRun("destroy", "-auto-approve", "-input=false")
	if err := p.CheckDestroy(nil); err != nil {
		t.Error(err)
	}
}

// TestProxmoxImportCommand: terraform import of a VM made outside
// Terraform into a resource written by hand, then an apply that writes the
// mark, an empty plan, and a destroy that deletes it; an import block for a
// second VM goes the same way in the same apply.
func TestProxmoxImportCommand(t *testing.T) {
	t.Parallel()
	p := acctest.NewProxmox(t)
	vmid := seedLegacy(t, p, "legacy")
	other := seedLegacy(t, p, "legacy-2")
	c := acctest.NewCLI(t, p.Account())
	c.MustRun("apply", "-auto-approve", "-input=false")
	id := accountID(t, c) + "/" + strconv.Itoa(vmid)
	c.Config(p.Account() + legacyInstance("legacy") + strings.ReplaceAll(legacyInstance("legacy-2"), `"legacy"`, `"other"`) + fmt.Sprintf(`
import {
  to = compute_instance.other
  id = "${compute_provider_account.pve.id}/%d"
}
`, other))
	if out := c.MustRun("import", "-input=false", "compute_instance.legacy", id); !strings.Contains(out, "Import successful") {
		t.Fatalf("terraform import did not succeed:\n%s", out)
	}
	if vm, _ := p.PVE.VM(vmid); strings.Contains(vm.Config["tags"], "compute") {
		t.Fatalf("the import wrote to the VM: tags %q", vm.Config["tags"])
	}
	out := c.MustRun("plan", "-input=false")
	if !strings.Contains(out, "1 to import, 0 to add, 2 to change, 0 to destroy") {
		t.Errorf("the plan should import one VM and write both marks, nothing else:\n%s", out)
	}
	c.MustRun("apply", "-auto-approve", "-input=false")
	markedLegacy(t, p, vmid)
	markedLegacy(t, p, other)
	emptyPlan(t, c)
	c.MustRun("destroy", "-auto-approve", "-input=false")
	if err := p.CheckDestroy(nil); err != nil {
		t.Error(err)
	}
}
