package instance_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestProxmoxQueryAdoptsFleet adopts three VMs made outside Terraform with
// `terraform query -generate-config-out` (Terraform 1.14 and later). PVE
// does not record the template a VM was cloned from, so the generated
// configuration has every attribute but image, and its plan fails naming
// image; with the image written in, the plan imports the three and only
// writes their marks, the apply does, and the next plan is empty.
func TestProxmoxQueryAdoptsFleet(t *testing.T) {
	t.Parallel()
	acctest.Require(t, acctest.Query)
	p := acctest.NewProxmox(t)
	var vmids []int
	for _, n := range []string{"web-1", "web-2", "web-3"} {
		vmids = append(vmids, seedLegacy(t, p, n))
	}
	c := acctest.NewCLI(t, p.Account())
	c.MustRun("apply", "-auto-approve", "-input=false")
	out, gen := c.Query(strings.ReplaceAll(webList("compute_provider_account.pve.id"), `name_prefix = "web-"`, `name_regex  = "^web-[0-9]+$"`))
	for _, vmid := range vmids {
		if !strings.Contains(out, "id="+strconv.Itoa(vmid)) {
			t.Errorf("VM %d is not in the query's output:\n%s", vmid, out)
		}
	}
	if n := len(regexp.MustCompile(`offer_id\s+= "small"`).FindAllString(gen, -1)); n != 3 {
		t.Errorf("the generated configuration reads the flavor of %d VMs, want 3:\n%s", n, gen)
	}
	plan, err := c.Run("plan", "-input=false")
	if err == nil || !acctest.Match(`Missing Configuration for Required Attribute .* the image attribute`).MatchString(plan) {
		t.Errorf("the plan of the generated configuration: %v, want it to ask for the image:\n%s", err, plan)
	}
	c.Write("fleet.tf", c.FillNull(gen, "image", strconv.Quote(acctest.ProxmoxTemplate)))
	plan = c.MustRun("plan", "-input=false")
	t.Logf("terraform plan (the generated configuration)\n%s", plan)
	if !strings.Contains(plan, "3 to import, 0 to add, 3 to change, 0 to destroy") {
		t.Errorf("the plan should import the three VMs and only write their marks:\n%s", plan)
	}
	c.MustRun("apply", "-auto-approve", "-input=false")
	for _, vmid := range vmids {
		markedLegacy(t, p, vmid)
	}
	c.EmptyPlan("after the apply of the generated configuration")
}
