package instance_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// proxmoxMany is n instances of one template, web-1..web-n.
func proxmoxMany(p *acctest.Proxmox, n int) string {
	return p.Account() + fmt.Sprintf(`
resource "compute_instance" "m" {
  count    = %d
  account  = compute_provider_account.pve.id
  name     = "web-${count.index + 1}"
  offer_id = "small"
  image    = %q
}
`, n, acctest.ProxmoxTemplate)
}

// TestProxmoxTwentyInParallel: twenty instances of one template in one
// apply with -parallelism=20 get twenty distinct VMIDs, with one clone
// request each and no lock waited for or timed out on the emulator: the
// provider queues clones of a template itself. The next plan is empty.
func TestProxmoxTwentyInParallel(t *testing.T) {
	t.Parallel()
	const n = 20
	p := acctest.NewProxmox(t)
	c := acctest.NewCLI(t, proxmoxMany(p, n))
	start := time.Now()
	out := c.MustRun("apply", "-auto-approve", "-input=false", "-parallelism=20")
	wall := time.Since(start)
	vms := p.Machines()
	ids := map[int]bool{}
	for _, v := range vms {
		ids[v.VMID] = true
		if v.Status != "running" || !strings.Contains(v.Config["tags"], "compute") {
			t.Errorf("VM %d (%s) is %s with tags %q, want running and tagged", v.VMID, v.Config["name"], v.Status, v.Config["tags"])
		}
	}
	if len(vms) != n || len(ids) != n {
		t.Fatalf("%d VMs with %d distinct VMIDs, want %d of each:\n%s", len(vms), len(ids), n, out)
	}
	if clones := p.Requests("POST /nodes/{node}/qemu/{vmid}/clone"); clones != n {
		t.Errorf("%d clone requests, want one per instance (%d)", clones, n)
	}
	if w, to := p.PVE.LockWaits(), p.PVE.LockTimeouts(); w != 0 || to != 0 {
		t.Errorf("the emulator saw %d lock waits and %d lock timeouts, want none", w, to)
	}
	if strings.Contains(out, "can't lock file") {
		t.Errorf("the apply met a lock error:\n%s", out)
	}
	t.Logf("%d instances of one template, -parallelism=20: %s wall time, %d requests in all", n, wall.Round(time.Millisecond), total(p.PVE.Stats()))
	if plan := c.MustRun("plan", "-input=false", "-detailed-exitcode"); !strings.Contains(plan, "No changes.") {
		t.Errorf("the plan after the apply is not empty:\n%s", plan)
	}
	c.MustRun("destroy", "-auto-approve", "-input=false", "-parallelism=20")
	if err := p.CheckDestroy(nil); err != nil {
		t.Error(err)
	}
}

func total(stats map[string]int) int {
	n := 0
	for _, v := range stats {
		n += v
	}
	return n
}
