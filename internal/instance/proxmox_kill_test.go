package instance_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
)

const (
	routeClone  = "POST /nodes/{node}/qemu/{vmid}/clone"
	routeConfig = "POST /nodes/{node}/qemu/{vmid}/config"
	routeStart  = "POST /nodes/{node}/qemu/{vmid}/status/start"
)

// proxmoxNamed is one instance per name, from the template.
func proxmoxNamed(p *acctest.Proxmox, extra string, names ...string) string {
	return p.Account(extra) + fmt.Sprintf(`
resource "compute_instance" "m" {
  for_each = toset(["%s"])
  account  = compute_provider_account.pve.id
  name     = each.key
  offer_id = "small"
  image    = %q
}
`, strings.Join(names, `", "`), acctest.ProxmoxTemplate)
}

// pveKillPoint is an instant of a Proxmox create at which terraform is
// killed: arm scripts the emulator to hold the apply there, reached reads
// its counters to tell that terraform got there, release undoes arm.
type pveKillPoint struct {
	name    string
	n       int
	arm     func(t *testing.T, p *acctest.Proxmox)
	reached func(p *acctest.Proxmox, n int) bool
	release func(p *acctest.Proxmox)
}

// holdPVE holds every call of route until its client goes away, never
// running it: a config write or start that terraform was killed waiting
// for never happened.
func holdPVE(t *testing.T, p *acctest.Proxmox, route string) {
	t.Helper()
	method, path, _ := strings.Cut(route, " ")
	if err := p.PVE.Faults().AddRule(faults.Rule{Method: method, Path: path, DelayIfConnected: faults.Duration(time.Hour)}); err != nil {
		t.Fatal(err)
	}
}

func midClone(n int) pveKillPoint {
	return pveKillPoint{
		name: fmt.Sprintf("%d during the clone", n),
		n:    n,
		arm:  func(_ *testing.T, p *acctest.Proxmox) { p.PVE.HoldClones() },
		// The provider queues clones of one template, so one clone task
		// runs (held, its VM locked "clone") while the others wait their
		// turn in the killed process.
		reached: func(p *acctest.Proxmox, _ int) bool {
			return p.PVE.HeldClones() == 1 && len(p.Machines()) == 1
		},
		release: func(p *acctest.Proxmox) { p.PVE.ReleaseClones() },
	}
}

func heldAt(route, what string, n int) pveKillPoint {
	return pveKillPoint{
		name:    fmt.Sprintf("%d %s", n, what),
		n:       n,
		arm:     func(t *testing.T, p *acctest.Proxmox) { holdPVE(t, p, route) },
		reached: func(p *acctest.Proxmox, n int) bool { return p.Requests(route) >= n },
		release: func(p *acctest.Proxmox) { p.PVE.Faults().Clear() },
	}
}

var pveKillPoints = []pveKillPoint{
	midClone(1),
	midClone(3),
	heldAt(routeConfig, "after the clone, during the config write", 3),
	heldAt(routeStart, "after the config write, during the start", 3),
}

// TestProxmoxKilledApplyFinishes kills terraform apply with SIGKILL (its
// whole process group, the provider included) while a create waits on the
// clone task, on the config write after it or on the start, with the
// state in the local backend and in an http backend on loopback. The clone
// task goes on in PVE without its client. The same apply run again, with
// no import, finishes the VMs the killed one left: one clone request per
// instance in all, distinct VMIDs, every VM marked and running, nothing
// unmarked left, an empty plan, and a destroy that removes them all.
func TestProxmoxKilledApplyFinishes(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"local", "http"} {
		for _, point := range pveKillPoints {
			t.Run(backend+"/"+point.name, func(t *testing.T) {
				t.Parallel()
				p := acctest.NewProxmox(t)
				var remote *acctest.StateBackend
				block := ""
				if backend == "http" {
					remote = acctest.NewStateBackend(t)
					block = remote.Block()
				}
				names := killNames[:point.n]
				c := acctest.NewInitCLI(t, block, "")
				c.Write("instances.tf", proxmoxNamed(p, "", names...))
				point.arm(t, p)
				proc := c.Start("apply", "-auto-approve", "-input=false")
				proc.WaitFor(point.name, func() bool { return point.reached(p, point.n) })
				proc.Kill()
				left := len(p.Machines())
				t.Logf("killed %s with %d VMs made", point.name, left)
				point.release(p)
				clonesBefore := p.Requests(routeClone)

				out := c.MustRun("apply", "-auto-approve", "-input=false")
				if got := p.Requests(routeClone); got != point.n {
					t.Errorf("%d clone requests in all, want one per instance (%d)", got, point.n)
				}
				if got, want := p.Requests(routeClone)-clonesBefore, point.n-left; got != want {
					t.Errorf("the rerun sent %d clone requests, want %d: the killed apply left %d VMs to finish", got, want, left)
				}
				raw := localState(c)
				if remote != nil {
					raw = remote.State()
				}
				pveAgree(t, p, rawInstances(t, raw), names...)
				if t.Failed() {
					t.Logf("the rerun printed:\n%s", out)
				}
				emptyPlan(t, c)
				c.MustRun("destroy", "-auto-approve", "-input=false")
				if err := p.CheckDestroy(nil); err != nil {
					t.Error(err)
				}
			})
		}
	}
}

// pveAgree asserts that the state and the emulator agree: every VM but the
// templates is marked (the compute tag, the description block), finished
// (running, unlocked, without cm-new) and held by exactly one state object
// of its name; VMIDs are distinct.
func pveAgree(t *testing.T, p *acctest.Proxmox, objects []stateInstance, wantNames ...string) {
	t.Helper()
	vms := p.Machines()
	byID := map[string]string{}
	for _, v := range vms {
		tags := ";" + v.Config["tags"] + ";"
		if !strings.Contains(tags, ";compute;") || !strings.Contains(v.Config["description"], "compute-managed: v1") {
			t.Errorf("VM %d (%s) is not marked: tags %q, description %q", v.VMID, v.Config["name"], v.Config["tags"], v.Config["description"])
		}
		if v.Status != "running" || v.Lock != "" || strings.Contains(tags, ";cm-new;") {
			t.Errorf("VM %d (%s) is %s, lock %q, tags %q: not finished", v.VMID, v.Config["name"], v.Status, v.Lock, v.Config["tags"])
		}
		byID[fmt.Sprint(v.VMID)] = v.Config["name"]
	}
	if len(vms) != len(wantNames) || len(byID) != len(wantNames) {
		t.Errorf("%d VMs with %d distinct VMIDs, want %d: %+v", len(vms), len(byID), len(wantNames), vms)
	}
	held := map[string]bool{}
	for _, o := range objects {
		vmid := o.ID[strings.LastIndex(o.ID, "/")+1:]
		name, ok := byID[vmid]
		switch {
		case !ok:
			t.Errorf("%s holds VM %s, which does not exist", o.Address, vmid)
		case name != o.Name:
			t.Errorf("%s (%s) holds VM %s named %q", o.Address, o.Name, vmid, name)
		case held[vmid]:
			t.Errorf("VM %s is held by two state objects", vmid)
		}
		held[vmid] = true
	}
	if len(objects) != len(wantNames) {
		t.Errorf("the state holds %d instances, want %d", len(objects), len(wantNames))
	}
}
