package instance_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// onlyServer returns the one live server, failing when there is not exactly
// one.
func onlyServer(t *testing.T, e *acctest.Emulator) emu.Server {
	t.Helper()
	live := e.Live()
	if len(live) != 1 {
		t.Fatalf("the emulator holds %d live servers, want 1: %+v", len(live), live)
	}
	return live[0]
}

// TestReplacementGetsANewMachine: -replace and taint without
// create_before_destroy, with and without -refresh=false, destroy the old
// machine first and create a new one, which the state holds.
func TestReplacementGetsANewMachine(t *testing.T) {
	t.Parallel()
	for _, how := range []struct{ name, replace string }{
		{"-replace", "-replace=" + addr},
		{"taint", ""},
	} {
		for _, refresh := range []string{"-refresh=true", "-refresh=false"} {
			t.Run(how.name+" "+refresh, func(t *testing.T) {
				t.Parallel()
				e := acctest.NewEmulator(t)
				c := acctest.NewCLI(t, instance(e, "repl-1"))
				c.MustRun("apply", "-auto-approve")
				old := onlyServer(t, e)
				args := []string{"apply", "-auto-approve", refresh}
				if how.replace == "" {
					c.MustRun("taint", addr)
				} else {
					args = append(args, how.replace)
				}
				c.MustRun(args...)
				now := onlyServer(t, e)
				if now.ID == old.ID {
					t.Fatalf("the replacement kept machine %d, want a new one", old.ID)
				}
				agree(t, e, rawInstances(t, localState(c)), "repl-1")
				emptyPlan(t, c)
				c.MustRun("destroy", "-auto-approve")
			})
		}
	}
}

// TestReplacementBeforeDestroyKeepsTheName: create_before_destroy under the
// same name asks for a second machine that would carry the first one's key.
// With -replace and with taint: after a refresh (which confirms the claim)
// the replacement's create is refused with the way out before anything is
// written; with -refresh=false right after the create (the claim still
// unconfirmed) the replacement's create adopts the machine it replaces, the
// apply fails on the old object with the way out, and the next apply
// forgets the old object. Either way the machine is left as it was: not
// deleted, not powered off, not renamed, held by the state's current
// object; following the way out (a name that changes with the replacement)
// gets a new machine.
func TestReplacementBeforeDestroyKeepsTheName(t *testing.T) {
	t.Parallel()
	cbd := `lifecycle {
    create_before_destroy = true
  }`
	for _, how := range []string{"-replace", "taint"} {
		for _, refresh := range []string{"-refresh=true", "-refresh=false"} {
			t.Run(how+" "+refresh, func(t *testing.T) {
				t.Parallel()
				e := acctest.NewEmulator(t)
				c := acctest.NewCLI(t, instance(e, "cbd-1", cbd))
				c.MustRun("apply", "-auto-approve")
				old := onlyServer(t, e)
				args := []string{"apply", "-auto-approve", refresh}
				if how == "taint" {
					c.MustRun("taint", addr)
				} else {
					args = append(args, "-replace="+addr)
				}
				out, err := c.Run(args...)
				if refresh == "-refresh=true" {
					// The apply's refresh confirmed the state's claim, so
					// the replacement's create is refused before anything
					// is written, and the state keeps its object.
					if err == nil || !acctest.Match(`already carries this resource's key.*nothing was written.*create_before_destroy\) under the same name, give the replacement another name`).MatchString(out) {
						t.Fatalf("the replacement under the same name: err %v, want the create refused with the way out:\n%s", err, out)
					}
					if now := onlyServer(t, e); now.ID != old.ID || now.Name != old.Name || now.Status != "running" {
						t.Fatalf("the held machine changed: before %+v, after %+v", old, now)
					}
					// A tainted object stays tainted: the next apply tries
					// the replacement again, until the way out is taken.
					objects := rawInstances(t, localState(c))
					if len(objects) != 1 || objects[0].Deposed || objects[0].Tainted != (how == "taint") || objects[0].ID != strconv.FormatInt(old.ID, 10) {
						t.Fatalf("the state does not keep its object of machine %d as it was: %+v", old.ID, objects)
					}
				} else {
					// Without a refresh since its create the claim is
					// unconfirmed: the replacement adopts the machine,
					// and the old object's destroy refuses to delete it.
					if err == nil || !acctest.Match(`was not destroyed: the instance that replaces it was created before it \(create_before_destroy\) under the same name.*give the replacement another name`).MatchString(out) {
						t.Fatalf("the replacement under the same name: err %v, want the error with the way out:\n%s", err, out)
					}
					now := onlyServer(t, e)
					if now.ID != old.ID || now.Name != old.Name || now.Status != "running" {
						t.Fatalf("the held machine changed: before %+v, after %+v", old, now)
					}
					var current []stateInstance
					for _, o := range rawInstances(t, localState(c)) {
						if !o.Deposed {
							current = append(current, o)
						}
					}
					if len(current) != 1 || current[0].ID != strconv.FormatInt(old.ID, 10) || current[0].Tainted || current[0].Claim != now.Labels[markPrefix+"claim"] {
						t.Fatalf("the state's current object does not hold machine %d: %+v", old.ID, current)
					}
					out = c.MustRun("apply", "-auto-approve", refresh)
					if !strings.Contains(out, "Instance forgotten, not deleted") || onlyServer(t, e).ID != old.ID {
						t.Fatalf("the next apply did not forget the old object and keep machine %d:\n%s", old.ID, out)
					}
					agree(t, e, rawInstances(t, localState(c)), "cbd-1")
					emptyPlan(t, c)
				}

				// The way out: a name that changes with the replacement.
				c.Write("main.tf", strings.NewReplacer(`name     = "cbd-1"`, `name     = "cbd-2"`, `offer_id = "cx22"`, `offer_id = "cx42"`).Replace(c.Read("main.tf")))
				c.MustRun("apply", "-auto-approve", refresh)
				now := onlyServer(t, e)
				if now.ID == old.ID || now.Name != "cbd-2" {
					t.Fatalf("following the way out gave %+v, want a new machine cbd-2", now)
				}
				agree(t, e, rawInstances(t, localState(c)), "cbd-2")
				c.MustRun("destroy", "-auto-approve")
			})
		}
	}
}

// TestSecondStateTakesOverAndTheFirstLetsGo: a second configuration with the
// same account, name and request adopts the machine and says so; from then
// on the first state is told on every plan, refuses at plan (and at apply
// without a refresh) to change or power the machine, and a destroy forgets
// it without deleting it.
func TestSecondStateTakesOverAndTheFirstLetsGo(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	first := acctest.NewCLI(t, instance(e, "shared-1"))
	first.MustRun("apply", "-auto-approve")
	machine := onlyServer(t, e)

	second := acctest.NewCLI(t, instance(e, "shared-1"))
	out := second.MustRun("apply", "-auto-approve")
	if !strings.Contains(out, "Warning: Instance adopted") {
		t.Errorf("the second configuration adopted the machine silently:\n%s", out)
	}
	agree(t, e, rawInstances(t, localState(second)), "shared-1")

	toldItLost(t, first)
	var err error
	for _, change := range []string{`labels = { role = "web" }`, `power = "off"`} {
		first.Write("main.tf", strings.Replace(first.Read("main.tf"), `image    = "ubuntu-24.04"`, "image    = \"ubuntu-24.04\"\n  "+change, 1))
		out, err = first.Run("plan")
		if err == nil || !acctest.Match(`Error: Unable to change instance held by another state.*held by another Terraform state`).MatchString(out) {
			t.Fatalf("the first state planned a change to a machine it lost (%s): %v\n%s", change, err, out)
		}
		out, err = first.Run("apply", "-auto-approve", "-refresh=false")
		if err == nil || !acctest.Match(`held by another Terraform state`).MatchString(out) {
			t.Fatalf("the first state changed a machine it lost (%s): %v\n%s", change, err, out)
		}
		first.Write("main.tf", strings.Replace(first.Read("main.tf"), "\n  "+change, "", 1))
	}
	if now := onlyServer(t, e); now.Status != "running" || len(userLabels(now.Labels)) != 0 {
		t.Fatalf("the machine changed under the state that lost it: %+v", now)
	}

	destroyForgets(t, first)
	if now := onlyServer(t, e); now.ID != machine.ID {
		t.Fatalf("the first state's destroy removed the machine the second holds")
	}
	emptyPlan(t, second)
	second.MustRun("destroy", "-auto-approve")
	if live := e.Live(); len(live) != 0 {
		t.Fatalf("the second state's destroy left %+v", live)
	}
}

// TestImportTakesTheMachinesClaim: a state that lost a managed machine
// imports it again; the import plans clean, the state takes the claim the
// machine carries and its refresh confirms it, so a create elsewhere is
// refused afterwards.
func TestImportTakesTheMachinesClaim(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	lost := acctest.NewCLI(t, instance(e, "imp-1")+`
output "id" {
  value = "${compute_instance.web.account}/${compute_instance.web.id}"
}
`)
	lost.MustRun("apply", "-auto-approve")
	machine := onlyServer(t, e)

	c := acctest.NewCLI(t, instance(e, "imp-1"))
	id := strings.TrimSpace(lost.MustRun("output", "-raw", "id"))
	c.MustRun("import", addr, id)
	// The account is new to this state; the imported instance has nothing
	// to change.
	if out := c.MustRun("apply", "-auto-approve"); !strings.Contains(out, "1 added, 0 changed, 0 destroyed") {
		t.Fatalf("the apply after the import changed more than the new account:\n%s", out)
	}
	agree(t, e, rawInstances(t, localState(c)), "imp-1")
	emptyPlan(t, c)

	// The import's refresh confirmed the claim it took: another
	// configuration with the same account and name is refused, and this
	// state keeps the machine.
	other := acctest.NewCLI(t, instance(e, "imp-1"))
	if out, err := other.Run("apply", "-auto-approve"); err == nil || !acctest.Match(`already carries this resource's key.*another Terraform state holds it`).MatchString(out) {
		t.Fatalf("another configuration's create after the import: %v, want it refused:\n%s", err, out)
	}
	if now := onlyServer(t, e); now.ID != machine.ID {
		t.Fatalf("the refused configuration made machine %d beside %d", now.ID, machine.ID)
	}
	emptyPlan(t, c)
	c.MustRun("destroy", "-auto-approve")
}
