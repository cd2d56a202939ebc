package instance_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// TestImportApplyKilledAfterTheMarkIsRerun: the first apply after an import
// writes the mark with a new claim. Killed after that write and before its
// state was saved, it leaves the state with the imported machine and no
// claim, and the machine with one. The rerun the fleet guide gives (apply
// again) plans the mark again, applies, and the plan after it is empty. The
// kill is made exact by putting back the state saved before that apply,
// which is what a SIGKILL at that moment leaves.
func TestImportApplyKilledAfterTheMarkIsRerun(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	legacy := e.AddServer(emu.Server{Name: "legacy"})
	const output = `
output "account" {
  value = compute_provider_account.test.id
}
`
	c := acctest.NewCLI(t, e.Account()+output)
	c.MustRun("apply", "-auto-approve")
	account := strings.TrimSpace(c.MustRun("output", "-raw", "account"))
	c.Config(instance(e, "legacy") + output)
	c.MustRun("import", addr, fmt.Sprintf("%s/%d", account, legacy))
	imported := c.Read("terraform.tfstate")

	c.MustRun("apply", "-auto-approve")
	if got := onlyServer(t, e).Labels; len(got) == 0 {
		t.Fatalf("the apply after the import wrote no mark: labels %v", got)
	}
	c.Write("terraform.tfstate", imported)

	out, err := c.Run("plan", "-detailed-exitcode")
	if strings.Contains(out, "held by another state") || !strings.Contains(out, "~ managed") {
		t.Fatalf("the rerun's plan (%v) does not plan the mark again:\n%s", err, out)
	}
	c.MustRun("apply", "-auto-approve")
	agree(t, e, rawInstances(t, localState(c)), "legacy")
	emptyPlan(t, c)
	if n := len(e.Live()); n != 1 {
		t.Fatalf("the emulator holds %d live servers, want the imported one only", n)
	}
}

// TestImportedMachineMarkedByAnotherStateIsNotDeleted: two states import
// the same machine and the second applies, marking it with its claim. The
// first, without a claim of its own, cannot tell that mark from one its own
// interrupted apply wrote: its destroy refuses, keeps the machine in its
// state, and says both ways out; the machine lives.
func TestImportedMachineMarkedByAnotherStateIsNotDeleted(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	legacy := e.AddServer(emu.Server{Name: "legacy"})
	importBlock := fmt.Sprintf(`
import {
  to = compute_instance.web
  id = "${compute_provider_account.test.id}/%d"
}
`, legacy)
	first := acctest.NewCLI(t, instance(e, "legacy")+importBlock)
	second := acctest.NewCLI(t, instance(e, "legacy")+importBlock)
	first.MustRun("apply", "-auto-approve", "-target=compute_provider_account.test")
	first.Config(instance(e, "legacy"))
	first.MustRun("import", addr, fmt.Sprintf("%s/%d", strings.TrimSpace(e.AccountID(t)), legacy))
	second.MustRun("apply", "-auto-approve")

	out, err := first.Run("destroy", "-auto-approve")
	if err == nil {
		t.Fatalf("the first state's destroy went through:\n%s", out)
	}
	block := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"written within the hour by an apply whose state was not saved", "It was not deleted", "terraform state rm"} {
		if !strings.Contains(block, want) {
			t.Errorf("the refusal lacks %q:\n%s", want, out)
		}
	}
	if n := len(e.Live()); n != 1 {
		t.Fatalf("the emulator holds %d live servers after the refused destroy, want 1", n)
	}
	if got := rawInstances(t, localState(first)); len(got) != 1 {
		t.Errorf("the first state lost the machine: %+v", got)
	}
}
