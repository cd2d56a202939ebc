package instance_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
)

// The machines every interrupted apply creates.
var killNames = []string{"kill-a", "kill-b", "kill-c"}

// killConfig is three instances and a terraform_data after them whose
// provisioner, when hold is set, keeps the apply running once every create
// has returned: the window in which a remote backend has not yet received
// the state.
func killConfig(e *acctest.Emulator, power string, hold bool) string {
	command := "true"
	if hold {
		command = "sleep 600"
	}
	return e.Account() + fmt.Sprintf(`
resource "compute_instance" "m" {
  for_each = toset([%s])
  account  = compute_provider_account.test.id
  name     = each.key
  offer_id = "cx22"
  image    = "ubuntu-24.04"
  power    = %q
}

resource "terraform_data" "after" {
  depends_on = [compute_instance.m]
  provisioner "local-exec" {
    command = %q
  }
}
`, `"`+strings.Join(killNames, `", "`)+`"`, power, command)
}

// killPoint is one instant of an apply at which the test kills terraform.
type killPoint struct {
	name string
	// power is the configuration's power setting for the killed apply.
	power string
	// before runs first: an earlier interrupted apply the point builds on.
	before func(t *testing.T, e *acctest.Emulator, c *acctest.CLI)
	// arm scripts the emulator to hold the apply at the point; reached
	// reports that terraform is there.
	arm     func(t *testing.T, e *acctest.Emulator) (hold bool)
	reached func(e *acctest.Emulator, p *acctest.Proc) bool
	// adopted is whether the rerun finds the machines by key (they exist
	// and no state knows them), for each backend.
	adopted map[string]bool
	// untilPersisted: the rerun also adopts where the backend has not yet
	// written the finished creates (see persistsEachResource).
	untilPersisted bool
}

// persistsEachResource reports whether backend writes the state as each
// resource of an apply finishes. Terraform's local backend does; its http
// backend writes during an apply only every 20 s (TF_STATE_PERSIST_INTERVAL,
// which cannot go lower), and so does OpenTofu's local backend.
func persistsEachResource(backend string) bool {
	return backend == "local" && !acctest.OpenTofu()
}

var (
	always = map[string]bool{"local": true, "http": true}
	never  = map[string]bool{}
)

// holdRoute holds every call of method on path until the client goes away;
// commit says whether a write takes effect before the hold
// (commit_then_delay) or never, its client having left
// (delay_if_connected).
func holdRoute(t *testing.T, e *acctest.Emulator, method, path string, commit bool) {
	t.Helper()
	rule := faults.Rule{Method: method, Path: path, DelayIfConnected: faults.Duration(time.Hour)}
	if commit {
		rule = faults.Rule{Method: method, Path: path, CommitThenDelay: faults.Duration(time.Hour)}
	}
	if err := e.Faults().AddRule(rule); err != nil {
		t.Fatal(err)
	}
}

func calls(e *acctest.Emulator, route string) int { return e.Faults().Stats()[route] }

var killPoints = []killPoint{
	{
		name: "before the create request",
		arm: func(t *testing.T, e *acctest.Emulator) bool {
			// The look-up by key that precedes every create: one listing
			// the creates share.
			holdRoute(t, e, "GET", "/servers", false)
			return false
		},
		reached: func(e *acctest.Emulator, _ *acctest.Proc) bool { return calls(e, "GET /servers") >= 1 },
		adopted: never,
	},
	{
		name: "after the create was sent, before its answer",
		arm: func(t *testing.T, e *acctest.Emulator) bool {
			holdRoute(t, e, "POST", "/servers", true)
			return false
		},
		reached: func(e *acctest.Emulator, _ *acctest.Proc) bool { return len(e.Live()) == len(killNames) },
		adopted: always,
	},
	{
		name: "during the wait for the machine to run",
		arm: func(t *testing.T, e *acctest.Emulator) bool {
			// The creates' shared look-up passes; the listing their waits
			// share is held.
			if err := e.Faults().AddRule(faults.Rule{Method: "GET", Path: "/servers", Count: 1, DelayIfConnected: faults.Duration(time.Millisecond)}); err != nil {
				t.Fatal(err)
			}
			holdRoute(t, e, "GET", "/servers", false)
			return false
		},
		reached: func(e *acctest.Emulator, _ *acctest.Proc) bool {
			return len(e.Live()) == len(killNames) && calls(e, "GET /servers") >= 2
		},
		adopted: always,
	},
	{
		name: "after the creates returned, before the state was persisted",
		arm:  func(*testing.T, *acctest.Emulator) bool { return true },
		reached: func(_ *acctest.Emulator, p *acctest.Proc) bool {
			return strings.Count(p.Output(), "]: Creation complete") == len(killNames) && strings.Contains(p.Output(), "Provisioning with 'local-exec'")
		},
		// Terraform's local backend writes each finished resource at once;
		// a remote one, and OpenTofu's local one, only every ~20 s, so
		// their rerun has to adopt.
		adopted:        never,
		untilPersisted: true,
	},
	{
		name:   "during the label change that adopts a machine",
		before: killedAfterCommit,
		arm: func(t *testing.T, e *acctest.Emulator) bool {
			holdRoute(t, e, "PUT", "/servers/{id}", true)
			return false
		},
		reached: func(e *acctest.Emulator, _ *acctest.Proc) bool {
			return calls(e, "PUT /servers/{id}") >= len(killNames)
		},
		adopted: always,
	},
	{
		name:   "during the power change that follows an adoption",
		power:  "off",
		before: killedAfterCommit,
		arm: func(t *testing.T, e *acctest.Emulator) bool {
			holdRoute(t, e, "POST", "/servers/{id}/actions/shutdown", true)
			return false
		},
		reached: func(e *acctest.Emulator, _ *acctest.Proc) bool {
			return calls(e, "POST /servers/{id}/actions/shutdown") >= len(killNames)
		},
		adopted: always,
	},
}

// killedAfterCommit is an apply killed once every create was committed and
// before any answer came back: the machines exist, no state knows them.
func killedAfterCommit(t *testing.T, e *acctest.Emulator, c *acctest.CLI) {
	t.Helper()
	holdRoute(t, e, "POST", "/servers", true)
	p := c.Start("apply", "-auto-approve", "-input=false")
	p.WaitFor("every create to be committed", func() bool { return len(e.Live()) == len(killNames) })
	p.Kill()
	e.Faults().Clear()
}

// TestInterruptedApplyRerunsClean kills terraform apply with SIGKILL (the
// whole process group: terraform and its provider) at each instant of a
// create, with the state in the local backend and in an http backend on
// loopback, then runs the same apply again with no saved plan and no import:
// exactly one machine per resource, held by the state, and an empty plan.
func TestInterruptedApplyRerunsClean(t *testing.T) {
	t.Parallel()
	for _, backend := range []string{"local", "http"} {
		for _, point := range killPoints {
			t.Run(backend+"/"+point.name, func(t *testing.T) {
				t.Parallel()
				e := acctest.NewEmulator(t)
				var remote *acctest.StateBackend
				block := ""
				if backend == "http" {
					remote = acctest.NewStateBackend(t)
					block = remote.Block()
				}
				power := point.power
				if power == "" {
					power = "on"
				}
				c := acctest.NewInitCLI(t, block, "")
				c.Write("instances.tf", killConfig(e, "on", false))
				if point.before != nil {
					point.before(t, e, c)
				}
				hold := point.arm(t, e)
				c.Write("instances.tf", killConfig(e, power, hold))
				p := c.Start("apply", "-auto-approve", "-input=false")
				p.WaitFor(point.name, func() bool { return point.reached(e, p) })
				p.Kill()
				if point.untilPersisted && !persistsEachResource(backend) {
					// The window this point is about: the creates returned,
					// and the backend knows none of them.
					state := localState(c)
					if remote != nil {
						state = remote.State()
					}
					if objects := rawInstances(t, state); len(objects) != 0 {
						t.Fatalf("the %s backend received %d instances before the kill; the test no longer covers the window", backend, len(objects))
					}
				}
				e.Faults().Clear()
				e.Faults().Reset()
				before := localState(c)
				if remote != nil {
					before = remote.State()
				}
				// The rerun's refresh confirms the claim of every machine the
				// killed apply's state kept: one PUT each.
				known := len(rawInstances(t, before))

				c.Write("instances.tf", killConfig(e, power, false))
				out := c.MustRun("apply", "-auto-approve", "-input=false")
				raw := localState(c)
				if remote != nil {
					raw = remote.State()
				}
				agree(t, e, rawInstances(t, raw), killNames...)
				want := 0
				if point.adopted[backend] || point.untilPersisted && !persistsEachResource(backend) {
					want = len(killNames)
				}
				// An adoption writes the rerun's claim; a fresh create writes
				// nothing after its POST; a refresh of a machine the state
				// kept confirms its claim.
				if got := calls(e, "PUT /servers/{id}") - known; got != want || (want > 0) != strings.Contains(out, "Warning: Instance adopted") {
					t.Errorf("the rerun adopted %d machines (%d known to the state before), want %d: the kill did not land where the point says", got, known, want)
				}
				for _, s := range e.Live() {
					if want := map[string]string{"on": "running", "off": "off"}[power]; s.Status != want {
						t.Errorf("server %s is %s, want %s", s.Name, s.Status, want)
					}
				}
				if t.Failed() {
					t.Logf("the rerun printed:\n%s", out)
				}
				emptyPlan(t, c)
				c.MustRun("destroy", "-auto-approve", "-input=false")
				if live := e.Live(); len(live) != 0 {
					t.Errorf("servers left after destroy: %+v", live)
				}
			})
		}
	}
}
