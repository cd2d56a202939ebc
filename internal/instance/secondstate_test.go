package instance_test

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
)

// writes counts the requests that change a server: a create, an update
// (labels, name), a delete and every action.
func writes(e *acctest.Emulator) int {
	n := 0
	for route, c := range e.Faults().Stats() {
		method, path, _ := strings.Cut(route, " ")
		if method != "GET" && strings.HasPrefix(path, "/servers") {
			n += c
		}
	}
	return n
}

// TestSecondStateRefusedOnceTheHolderRefreshed: a state applies and plans
// (its refresh confirms the claim); a new workspace with the same
// configuration and account is then refused at apply with a Conflict that
// names the machine, its account and both ways out, before anything is
// written; its destroy leaves the machine; the first state plans clean and
// still holds the machine.
func TestSecondStateRefusedOnceTheHolderRefreshed(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	c := acctest.NewCLI(t, instance(e, "shared-2"))
	c.MustRun("apply", "-auto-approve")
	if s := onlyServer(t, e); s.Labels[markPrefix+"unconfirmed"] != "true" {
		t.Fatalf("a created server carries labels %v, want the claim unconfirmed until a refresh", s.Labels)
	}
	emptyPlan(t, c)
	held := onlyServer(t, e)
	if _, ok := held.Labels[markPrefix+"unconfirmed"]; ok {
		t.Fatalf("the holder's plan did not confirm its claim: labels %v", held.Labels)
	}
	// A second refresh finds the claim confirmed and writes nothing.
	before := writes(e)
	emptyPlan(t, c)
	if n := writes(e) - before; n != 0 {
		t.Errorf("a refresh of a confirmed machine sent %d writes", n)
	}

	c.MustRun("workspace", "new", "staging")
	before = writes(e)
	out, err := c.Run("apply", "-auto-approve", "-input=false")
	refusal := acctest.Match(fmt.Sprintf(`Error: Unable to create instance.*machine %d \("shared-2"\) on account "test" \(hetzner_cloud at [^)]+\) already carries this resource's key.*another Terraform state holds it: the state that created or imported it has confirmed its claim.*nothing was written.*its name or hostname, e.g. "shared-2-\$\{terraform.workspace\}".*`+"`terraform state rm`"+` on it in the state that holds it, then import it here`, held.ID))
	if err == nil || !refusal.MatchString(out) {
		t.Fatalf("the second workspace's apply: %v, want the Conflict naming machine %d, its account and the ways out:\n%s", err, held.ID, out)
	}
	if n := writes(e) - before; n != 0 {
		t.Errorf("the refused create sent %d writes to the backend: %v", n, e.Faults().Stats())
	}
	now := onlyServer(t, e)
	if now.ID != held.ID || now.Status != "running" || !maps.Equal(now.Labels, held.Labels) {
		t.Fatalf("the refused create changed the machine: before %+v, after %+v", held, now)
	}
	c.MustRun("destroy", "-auto-approve")
	if now := onlyServer(t, e); now.ID != held.ID || !maps.Equal(now.Labels, held.Labels) {
		t.Fatalf("the second workspace's destroy touched the machine: before %+v, after %+v", held, now)
	}

	c.MustRun("workspace", "select", "default")
	emptyPlan(t, c)
	agree(t, e, rawInstances(t, localState(c)), "shared-2")
	c.MustRun("destroy", "-auto-approve")
	if live := e.Live(); len(live) != 0 {
		t.Fatalf("the holder's destroy left %+v", live)
	}
}

// TestConfirmThatFailsDoesNotFailTheRefresh: a plan whose confirming write
// is refused (a read-only token: 403 on every PUT) still plans clean and
// keeps the claim unconfirmed; the next plan, with writes allowed again,
// confirms it.
func TestConfirmThatFailsDoesNotFailTheRefresh(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	c := acctest.NewCLI(t, instance(e, "ro-1"))
	c.MustRun("apply", "-auto-approve")
	if err := e.Faults().AddRule(faults.Rule{Method: "PUT", Path: "/servers/{id}", Status: 403, Code: "forbidden", Message: "insufficient permissions for this token"}); err != nil {
		t.Fatal(err)
	}
	emptyPlan(t, c)
	if s := onlyServer(t, e); s.Labels[markPrefix+"unconfirmed"] != "true" {
		t.Fatalf("a refused confirmation changed the labels: %v", s.Labels)
	}
	if calls(e, "PUT /servers/{id}") == 0 {
		t.Fatalf("the plan did not try to confirm the claim: %v", e.Faults().Stats())
	}
	e.Faults().Clear()
	emptyPlan(t, c)
	if s := onlyServer(t, e); s.Labels[markPrefix+"unconfirmed"] != "" {
		t.Fatalf("the next plan did not confirm the claim: %v", s.Labels)
	}
	c.MustRun("destroy", "-auto-approve")
}
