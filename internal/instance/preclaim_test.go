package instance_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// forgetClaims makes an applied configuration look like one written before
// claims existed: no claim label on its machine, no claim in its state.
func forgetClaims(t *testing.T, e *acctest.Emulator, c *acctest.CLI) {
	t.Helper()
	s := onlyServer(t, e)
	labels := map[string]string{}
	for k, v := range s.Labels {
		if k != markPrefix+"claim" {
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

// TestClaimlessStateNeverTakesAnotherStatesClaim: a state without a claim
// (written before claims existed) whose machine another state then adopted
// has lost it: its refresh does not take the other state's claim, and its
// destroy forgets the machine instead of deleting it.
func TestClaimlessStateNeverTakesAnotherStatesClaim(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	old := acctest.NewCLI(t, instance(e, "pre-2"))
	old.MustRun("apply", "-auto-approve")
	forgetClaims(t, e, old)
	second := acctest.NewCLI(t, instance(e, "pre-2"))
	second.MustRun("apply", "-auto-approve")

	toldItLost(t, old)
	destroyForgets(t, old)
	agree(t, e, rawInstances(t, localState(second)), "pre-2")
	second.MustRun("destroy", "-auto-approve")
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
// under the same name, from a state without claims: the replacement adopts
// the machine, and the old object's destroy still refuses to delete it.
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
			if err == nil || !strings.Contains(out, "was not destroyed") {
				t.Fatalf("the replacement: %v, want the error on the old object:\n%s", err, out)
			}
			if now := onlyServer(t, e); now.ID != machine.ID {
				t.Fatalf("machine %d was replaced by %d", machine.ID, now.ID)
			}
			c.MustRun("apply", "-auto-approve", refresh)
			agree(t, e, rawInstances(t, localState(c)), "pre-1")
			c.MustRun("destroy", "-auto-approve")
		})
	}
}
