package instance_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// forgetClaims makes an applied configuration look like one written before
// claims existed: no claim label (nor the unconfirmed label, which came
// later) on its machine, no claim in its state.
func forgetClaims(t *testing.T, e *acctest.Emulator, c *acctest.CLI) {
	t.Helper()
	s := onlyServer(t, e)
	labels := map[string]string{}
	for k, v := range s.Labels {
		if k != markPrefix+"claim" && k != markPrefix+"unconfirmed" {
			labels[k] = v
		}
	}
	e.SetServerLabels(s.ID, labels)
	path := filepath.Join(c.Dir, "terraform.tfstate")
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var st map[string]any
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatal(err)
	}
	for _, r := range st["resources"].([]any) {
		for _, i := range r.(map[string]any)["instances"].([]any) {
			i.(map[string]any)["attributes"].(map[string]any)["claim"] = nil
		}
	}
	if raw, err = json.Marshal(st); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
}

// TestClaimlessStateNeverTakesAnotherStatesClaim: a machine from before
// claims reads as confirmed, so a second state with the same account and
// name is refused instead of adopting it; and a state without a claim
// (written before claims existed) whose machine another state then claimed
// has lost it: its refresh does not take the other state's claim, and its
// destroy forgets the machine instead of deleting it.
func TestClaimlessStateNeverTakesAnotherStatesClaim(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	old := acctest.NewCLI(t, instance(e, "pre-2"))
	old.MustRun("apply", "-auto-approve")
	forgetClaims(t, e, old)
	second := acctest.NewCLI(t, instance(e, "pre-2"))
	if out, err := second.Run("apply", "-auto-approve"); err == nil || !acctest.Match(`already carries this resource's key.*another Terraform state holds it`).MatchString(out) {
		t.Fatalf("a second state's create of a machine from before claims: %v, want it refused:\n%s", err, out)
	}
	emptyPlan(t, old)

	// Another state's claim on the machine (an import there, say).
	s := onlyServer(t, e)
	s.Labels[markPrefix+"claim"] = adapter.NewClaim()
	e.SetServerLabels(s.ID, s.Labels)
	toldItLost(t, old)
	destroyForgets(t, old)
	if now := onlyServer(t, e); now.ID != s.ID {
		t.Fatalf("the claimless state's destroy removed machine %d", s.ID)
	}
}

// TestClaimlessStateGetsAClaim: a state and machine from before claims, left
// alone, are still the state's; the next change writes a claim into both.
func TestClaimlessStateGetsAClaim(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	c := acctest.NewCLI(t, instance(e, "pre-3"))
	c.MustRun("apply", "-auto-approve")
	forgetClaims(t, e, c)
	emptyPlan(t, c)
	c.Write("main.tf", strings.Replace(c.Read("main.tf"), `image    = "ubuntu-24.04"`, "image    = \"ubuntu-24.04\"\n  labels   = { role = \"web\" }", 1))
	c.MustRun("apply", "-auto-approve")
	agree(t, e, rawInstances(t, localState(c)), "pre-3")
	c.MustRun("destroy", "-auto-approve")
}

// TestClaimlessReplacementBeforeDestroyKeepsTheMachine: create_before_destroy
// under the same name, from a state without claims: the replacement's
// create is refused (a machine from before claims is never adopted), and
// the machine stays, held by the state.
func TestClaimlessReplacementBeforeDestroyKeepsTheMachine(t *testing.T) {
	t.Parallel()
	for _, refresh := range []string{"-refresh=true", "-refresh=false"} {
		t.Run(refresh, func(t *testing.T) {
			t.Parallel()
			e := acctest.NewEmulator(t)
			c := acctest.NewCLI(t, instance(e, "pre-1", "lifecycle {\n    create_before_destroy = true\n  }"))
			c.MustRun("apply", "-auto-approve")
			machine := onlyServer(t, e)
			forgetClaims(t, e, c)
			out, err := c.Run("apply", "-auto-approve", refresh, "-replace="+addr)
			// A machine from before claims reads as confirmed: the
			// replacement's create is refused, before anything is written.
			if err == nil || !acctest.Match(`already carries this resource's key.*create_before_destroy`).MatchString(out) {
				t.Fatalf("the replacement: %v, want the create refused with the way out:\n%s", err, out)
			}
			if now := onlyServer(t, e); now.ID != machine.ID {
				t.Fatalf("machine %d was replaced by %d", machine.ID, now.ID)
			}
			if objects := rawInstances(t, localState(c)); len(objects) != 1 || objects[0].Deposed || objects[0].ID != strconv.FormatInt(machine.ID, 10) {
				t.Fatalf("the state does not keep its object of machine %d: %+v", machine.ID, objects)
			}
			emptyPlan(t, c)
			c.MustRun("destroy", "-auto-approve")
		})
	}
}
