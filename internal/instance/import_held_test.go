package instance_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// TestInstanceImportHeldElsewhere: importing a machine another state
// created and refreshed (its claim confirmed) works, as moving a machine
// between states needs, but warns, naming the machine and the account, that
// the other state still lists it, holds it as much as this one and how to
// end that. A machine no state has claimed imports without the warning.
func TestInstanceImportHeldElsewhere(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	instance := `
resource "compute_instance" "web" {
  account  = compute_provider_account.test.id
  name     = "web-1"
  offer_id = "cx22"
  image    = "ubuntu-24.04"
}
`
	first := acctest.NewCLI(t, e.Account()+instance)
	first.MustRun("apply", "-auto-approve")
	first.MustRun("plan") // the refresh confirms the first state's claim
	servers := e.Servers()
	if len(servers) != 1 {
		t.Fatalf("the emulator holds %d servers, want 1", len(servers))
	}
	id := servers[0].ID
	importBlock := fmt.Sprintf(`
import {
  to = compute_instance.web
  id = "${compute_provider_account.test.id}/%d"
}
`, id)
	second := acctest.NewCLI(t, e.Account()+importBlock+instance)
	out, err := second.Run("plan")
	if err != nil {
		t.Fatalf("the import's plan failed (%v), want a warning only:\n%s", err, out)
	}
	const summary = "Warning: Imported machine may be held by another state"
	block := acctest.Diagnostic(out, summary)
	for _, want := range []string{
		fmt.Sprintf(`Machine %d ("web-1") on account "test" (hetzner_cloud at`, id),
		"still lists the machine", "terraform state rm ADDRESS", "removed",
	} {
		if !strings.Contains(strings.Join(strings.Fields(block), " "), want) {
			t.Errorf("the warning lacks %q:\n%s", want, out)
		}
	}
	if strings.Count(out, summary) != 1 {
		t.Errorf("want the warning once:\n%s", out)
	}

	// As the warning says, the import shares the claim: after its apply the
	// first state still holds the machine and is refused nothing, which is
	// why the warning asks for the state rm there.
	second.MustRun("apply", "-auto-approve")
	if out := first.MustRun("plan"); strings.Contains(out, "held by another state") {
		t.Errorf("the first state is told it lost the machine, which the warning does not say:\n%s", out)
	}

	// A machine no state has claimed: no warning.
	fresh := e.AddServer(emu.Server{Name: "legacy"})
	third := acctest.NewCLI(t, e.Account()+fmt.Sprintf(`
import {
  to = compute_instance.legacy
  id = "${compute_provider_account.test.id}/%d"
}

resource "compute_instance" "legacy" {
  account  = compute_provider_account.test.id
  name     = "legacy"
  offer_id = "cx22"
  image    = "ubuntu-24.04"
}
`, fresh))
	if out := third.MustRun("plan"); strings.Contains(out, summary) {
		t.Errorf("an unclaimed machine's import warns:\n%s", out)
	}
}

// TestInstanceImportOfAFreshClaimWarns: a machine another state created
// and has not refreshed since carries a claim no state has confirmed. An
// import takes it as it does a confirmed one, and warns as it does, saying
// that the claim is another state's or this configuration's own interrupted
// apply's, and when nothing more is needed.
func TestInstanceImportOfAFreshClaimWarns(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	acctest.NewCLI(t, instance(e, "web-1")).MustRun("apply", "-auto-approve")
	servers := e.Servers()
	if len(servers) != 1 {
		t.Fatalf("the emulator holds %d servers, want 1", len(servers))
	}
	second := acctest.NewCLI(t, instance(e, "web-1")+fmt.Sprintf(`
import {
  to = compute_instance.web
  id = "${compute_provider_account.test.id}/%d"
}
`, servers[0].ID))
	out := second.MustRun("plan")
	block := strings.Join(strings.Fields(acctest.Diagnostic(out, "Warning: Imported machine may be held by another state")), " ")
	for _, want := range []string{"a claim no state has confirmed yet", "another state's", "interrupted before its state was saved",
		"nothing more is needed", "terraform state rm ADDRESS"} {
		if !strings.Contains(block, want) {
			t.Errorf("the warning lacks %q:\n%s", want, out)
		}
	}
}
