package instance_test

import (
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
)

// Destroying a machine that is already gone is done: the codes table says
// NotFound during destroy is success. Two ways a machine goes between plan
// and apply are tried, one for each place Delete meets the absence: its
// first read, and the adapter's delete itself.

// TestInstanceDestroyOfGoneMachine: the machine is deleted outside Terraform
// after a destroy plan was saved; applying the plan succeeds, forgets the
// instance and sends no delete.
func TestInstanceDestroyOfGoneMachine(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	cli := acctest.NewCLI(t, instance(e, "gone-2"))
	cli.MustRun("apply", "-auto-approve")
	s, ok := e.ServerNamed("gone-2")
	if !ok {
		t.Fatal("the apply made no server")
	}
	cli.MustRun("plan", "-destroy", "-out=destroy.tfplan")
	e.RemoveServer(s.ID)
	e.ResetStats()

	out, err := cli.Run("apply", "destroy.tfplan")
	if err != nil {
		t.Fatalf("destroying a machine that is already gone failed: %v\n%s", err, out)
	}
	expectForgotten(t, cli, out)
	if n := e.Stats()["DELETE /servers/{id}"]; n != 0 {
		t.Errorf("%d deletes were sent for a machine that was gone", n)
	}
}

// TestInstanceDestroyOfMachineGoneMeanwhile: the destroy's first read of
// the machine finds it, and then it goes: the API answers not_found to
// everything the delete sends after that read. The destroy is done.
func TestInstanceDestroyOfMachineGoneMeanwhile(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	cli := acctest.NewCLI(t, instance(e, "gone-3"))
	cli.MustRun("apply", "-auto-approve")
	mustRule(t, e, faults.Rule{Method: "GET", Path: "/servers/{id}", Skip: 1, Status: 404, Code: "not_found"})
	mustRule(t, e, faults.Rule{Method: "DELETE", Path: "/servers/{id}", Status: 404, Code: "not_found"})
	e.ResetStats()

	out, err := cli.Run("destroy", "-auto-approve")
	if err != nil {
		t.Fatalf("destroying a machine that went meanwhile failed: %v\n%s", err, out)
	}
	if n := e.Stats()["GET /servers/{id}"]; n < 2 {
		t.Fatalf("the destroy read the machine %d times; it never met the absence after its first read", n)
	}
	expectForgotten(t, cli, out)
}

// expectForgotten checks that the destroy completed and the state is empty.
func expectForgotten(t *testing.T, cli *acctest.CLI, out string) {
	t.Helper()
	if !strings.Contains(out, addr+": Destruction complete") {
		t.Errorf("the destroy does not report the instance destroyed:\n%s", out)
	}
	if list := strings.TrimSpace(cli.MustRun("state", "list")); strings.Contains(list, addr) {
		t.Errorf("the instance is still in the state after its destroy:\n%s", list)
	}
}
