package instance_test

import (
	"fmt"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// requestCountN is how many instances TestInstanceRequestCounts applies and
// plans: enough that a cost per machine stands out from the fixed costs of
// a run, few enough to be quick.
const requestCountN = 6

// TestInstanceRequestCounts counts, through the real terraform binary, what
// make bench measures at N = 10 to 1,000 (see adapter.Cached): a plan of N
// instances on one account costs one listing page per 50 machines and the
// account's check, whatever N, and never a read per machine; an apply of N
// costs N creates, and beyond them a fixed cost per run and the waits'
// shared listing rounds, never a read per machine. It costs about 20s.
func TestInstanceRequestCounts(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	cli := acctest.NewCLI(t, e.Account()+fmt.Sprintf(`
resource "compute_instance" "web" {
  count    = %d
  account  = compute_provider_account.test.id
  name     = "count-${count.index}"
  offer_id = "cx22"
  image    = "ubuntu-24.04"
}
`, requestCountN))

	// Shared listing rounds are PollInterval apart on the wall clock, which
	// bounds them by the time the apply took (FastClock spaces them by a
	// hundredth of it, which would bound nothing). Each create takes a few
	// seconds of wall time, not a number of polls, so that the waits last
	// several rounds and a wait that lists on its own, as often as its
	// schedule allows, stands out (polls would end every create after a
	// round or two, whoever sent them).
	cli.UseRealClock()
	if err := e.SetActionPace(emu.ActionPace{Duration: faults.Duration(3 * time.Second)}); err != nil {
		t.Fatal(err)
	}
	e.ResetStats()
	start := time.Now()
	cli.MustRun("apply", "-auto-approve")
	took := time.Since(start)
	apply := e.Stats()
	if got := apply["POST /servers"]; got != requestCountN {
		t.Errorf("the apply of %d instances sent %d creates, want %d: %v", requestCountN, got, requestCountN, apply)
	}
	// The waits share listing rounds, one a PollInterval at most, whose
	// number depends on how Terraform spreads the creates over time; what
	// does not depend on timing is that no machine is read on its own, that
	// the listings are no more than the rounds the apply's time allows (a
	// slow machine only loosens that bound; a listing per wait and round
	// breaks it), and that the rest is a fixed cost per run: in the plan,
	// and again in the apply (a provider process each), one listing of the
	// locations that serves the account's check, the catalog and the API's
	// confirmation, the server types and the images; in the apply also the
	// write probe (7 requests).
	if got := apply["GET /servers/{id}"]; got > 0 {
		t.Errorf("the apply read %d machines one by one, want them read from shared listings: %v", got, apply)
	}
	if got, rounds := apply["GET /servers"], int(took/adapter.PollInterval)+3; got > rounds {
		t.Errorf("the apply of %d instances listed the servers %d times in %s, want at most %d: one listing per round shared by every wait",
			requestCountN, got, took.Round(time.Millisecond), rounds)
	}
	for route, want := range map[string]int{"GET /locations": 2, "GET /server_types": 2, "GET /images": 2, "PUT /ssh_keys/{id}": 1} {
		if got := apply[route]; got > want {
			t.Errorf("the apply of %d instances sent %s %d times, want at most %d (once per configured provider, the write probe once): %v",
				requestCountN, route, got, want, apply)
		}
	}
	if fixed := total(apply) - apply["POST /servers"] - apply["GET /servers"]; fixed > 7 {
		t.Errorf("the apply of %d instances cost %d requests besides its creates and listings, want at most 7 whatever the number of instances: %v",
			requestCountN, fixed, apply)
	}

	// The first plan after the apply confirms each new machine's claim
	// (one write each: rule 2, adoption and holding, of internal/adapter's
	// package documentation); the plans after it only read.
	cli.MustRun("plan")
	e.ResetStats()
	if out, err := cli.Run("plan", "-detailed-exitcode"); err != nil {
		t.Fatalf("the plan after the apply is not empty (%v):\n%s", err, out)
	}
	plan := e.Stats()
	if got, want := plan["GET /servers"], 1; got != want {
		t.Errorf("the plan of %d instances listed the servers %d times, want %d (one page holds 50): %v", requestCountN, got, want, plan)
	}
	if got := total(plan); got > 2 {
		t.Errorf("the plan of %d instances cost %d requests, want at most 2 (the listing and the account's check): %v", requestCountN, got, plan)
	}
}
