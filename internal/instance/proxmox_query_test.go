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
	out, gen := c.AdoptByQuery(strings.ReplaceAll(webList("compute_provider_account.pve.id"), `name_prefix = "web-"`, `name_regex  = "^web-[0-9]+$"`),
		map[string]string{"image": strconv.Quote(acctest.ProxmoxTemplate)}, 3)
	for _, vmid := range vmids {
		if !strings.Contains(out, "id="+strconv.Itoa(vmid)) {
			t.Errorf("VM %d is not in the query's output:\n%s", vmid, out)
		}
		markedLegacy(t, p, vmid)
	}
	if n := len(regexp.MustCompile(`offer_id\s+= "small"`).FindAllString(gen, -1)); n != 3 {
		t.Errorf("the generated configuration reads the flavor of %d VMs, want 3:\n%s", n, gen)
	}
}
