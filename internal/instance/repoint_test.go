package instance_test

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// cloudOn is an hcloud account "test" with the given endpoint, token
// reference and default location, and compute_instance.web on it.
func cloudOn(endpoint, tokenRef, location string) string {
	return fmt.Sprintf(`
provider "compute" {
  secrets = { hcloud = %q }
}

resource "compute_provider_account" "test" {
  name = "test"
  hetzner_cloud = {
    token    = %q
    endpoint = %q
    location = %q
  }
}

resource "compute_instance" "web" {
  account  = compute_provider_account.test.id
  name     = "repoint-1"
  offer_id = "cx22"
  image    = "ubuntu-24.04"
}
`, acctest.Token, tokenRef, endpoint, location)
}

// accountCheck is the route of the account's write check, a harmless
// write that never reaches a machine.
const accountCheck = "/ssh_keys/"

// unchanged checks that the one server is still machine id and that no
// write reached the emulator since *before was taken.
func unchanged(e *acctest.Emulator, id *int64, before *map[string]int) resource.TestCheckFunc {
	return func(*terraform.State) error {
		live := e.Live()
		if len(live) != 1 || live[0].ID != *id {
			return fmt.Errorf("want server %d alone, emulator holds %+v", *id, live)
		}
		return acctest.NoWritesSince(*before, e.Stats(), accountCheck)
	}
}

// TestInstanceAccountChangesRepointInPlace: every way of writing or
// changing the account that still reaches the server (a trailing slash,
// localhost for 127.0.0.1, another token reference, another default
// location) is an in-place update or nothing at all, the server keeps its
// id and location, no write reaches the backend, and the next plan is
// empty (the harness plans again after each step).
func TestInstanceAccountChangesRepointInPlace(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	// The account's apply proves the keys rescue_ssh_keys names.
	e.AddSSHKey("ops", emu.ExamplePublicKey)
	e.AddSSHKey("ci", emu.ExampleCIPublicKey)
	env := "env://" + acctest.HetznerCloudTokenEnv
	var id int64
	var before map[string]int
	snapshot := func() { before = acctest.Writes(e.Stats(), accountCheck) }
	inPlace := func(action plancheck.ResourceActionType) resource.ConfigPlanChecks {
		return resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectResourceAction(addr, action)}}
	}
	// The account is updated in place, never replaced, whatever the
	// instance does.
	keysChange := func(action plancheck.ResourceActionType) resource.ConfigPlanChecks {
		return resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
			plancheck.ExpectResourceAction(addr, action), plancheck.ExpectResourceAction("compute_provider_account.test", plancheck.ResourceActionUpdate)}}
	}
	keepsLocation := []statecheck.StateCheck{statecheck.ExpectKnownValue(addr, tfjsonpath.New("location"), knownvalue.StringExact("fsn1"))}
	localhost := strings.Replace(e.Endpoint, "127.0.0.1", "localhost", 1)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             e.CheckDestroy,
		Steps: []resource.TestStep{
			{
				Config: cloudOn(e.Endpoint, env, "fsn1"),
				Check: func(*terraform.State) error {
					id = onlyServer(t, e).ID
					return nil
				},
			},
			// A trailing slash is the same account: not even the id changes.
			{PreConfig: snapshot, Config: cloudOn(e.Endpoint+"/", env, "fsn1"), ConfigPlanChecks: inPlace(plancheck.ResourceActionNoop), Check: unchanged(e, &id, &before)},
			{
				PreConfig: snapshot, Config: cloudOn(localhost, env, "fsn1"), ConfigPlanChecks: inPlace(plancheck.ResourceActionUpdate),
				ConfigStateChecks: identityOn(t, "http://localhost"), Check: unchanged(e, &id, &before),
			},
			{PreConfig: snapshot, Config: cloudOn(localhost+"/", "provider://hcloud", "fsn1"), ConfigPlanChecks: inPlace(plancheck.ResourceActionUpdate), Check: unchanged(e, &id, &before)},
			{
				PreConfig: snapshot, Config: cloudOn(e.Endpoint, env, "nbg1"), ConfigPlanChecks: inPlace(plancheck.ResourceActionUpdate),
				ConfigStateChecks: keepsLocation, Check: unchanged(e, &id, &before),
			},
			// rescue_ssh_keys is read only by a boot into rescue: naming
			// the keys, or others, or none again, updates the account in
			// place and touches no machine; the list respaced is the same
			// account id, so the instance is not even re-pointed.
			{
				PreConfig: snapshot, Config: withRescueKeys(cloudOn(e.Endpoint, env, "nbg1"), "ops"),
				ConfigPlanChecks: keysChange(plancheck.ResourceActionUpdate), ConfigStateChecks: keepsLocation, Check: unchanged(e, &id, &before),
			},
			{
				PreConfig: snapshot, Config: withRescueKeys(cloudOn(e.Endpoint, env, "nbg1"), "ops,ci"),
				ConfigPlanChecks: keysChange(plancheck.ResourceActionUpdate), ConfigStateChecks: keepsLocation, Check: unchanged(e, &id, &before),
			},
			{
				PreConfig: snapshot, Config: withRescueKeys(cloudOn(e.Endpoint, env, "nbg1"), " ops , ci"),
				ConfigPlanChecks: keysChange(plancheck.ResourceActionNoop), ConfigStateChecks: keepsLocation, Check: unchanged(e, &id, &before),
			},
			{
				PreConfig: snapshot, Config: cloudOn(e.Endpoint, env, "nbg1"),
				ConfigPlanChecks: keysChange(plancheck.ResourceActionUpdate), ConfigStateChecks: keepsLocation, Check: unchanged(e, &id, &before),
			},
		},
	})
}

// withRescueKeys adds the rescue_ssh_keys setting to a cloudOn config.
func withRescueKeys(config, keys string) string {
	return strings.Replace(config, "    location = ", fmt.Sprintf("    rescue_ssh_keys = %q\n    location = ", keys), 1)
}

// identityOn checks that the identity's account is the one at endpoint,
// where the binary keeps identities (Terraform 1.12 and later).
func identityOn(t *testing.T, endpoint string) []statecheck.StateCheck {
	if !acctest.Supports(t, acctest.ImportByIdentity) {
		return nil
	}
	return []statecheck.StateCheck{statecheck.ExpectIdentity(addr, map[string]knownvalue.Check{
		"account": knownvalue.StringRegexp(regexp.MustCompile(`"endpoint":"` + regexp.QuoteMeta(endpoint))),
		"id":      knownvalue.NotNull(),
	})}
}

// TestInstanceAccountThatDoesNotReachFails: an account on another backend
// (another project) fails the plan on account with the way out, and
// nothing is written on either; an account known only at apply is proven
// there, before anything is written, and fails the same way, by the apply's
// plan or, when that plan cannot read the machine, by Update.
func TestInstanceAccountThatDoesNotReachFails(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	other := acctest.NewEmulator(t)
	env := "env://" + acctest.HetznerCloudTokenEnv
	// The endpoint goes through terraform_data, so changing it leaves the
	// account unknown until apply.
	deferred := func(endpoint string) string {
		return strings.Replace(cloudOn(endpoint, env, "fsn1"), fmt.Sprintf("endpoint = %q", endpoint), "endpoint = terraform_data.endpoint.output", 1) +
			fmt.Sprintf("\nresource \"terraform_data\" \"endpoint\" {\n  input = %q\n}\n", endpoint)
	}
	var id int64
	var before, otherBefore map[string]int
	snapshot := func() {
		before, otherBefore = acctest.Writes(e.Stats(), accountCheck), acctest.Writes(other.Stats(), accountCheck)
	}
	nothingWritten := func() {
		if err := unchanged(e, &id, &before)(nil); err != nil {
			t.Fatal(err)
		}
		if err := acctest.NoWritesSince(otherBefore, other.Stats(), accountCheck); err != nil {
			t.Fatalf("on the other backend: %v", err)
		}
		if n := len(other.Servers()); n != 0 {
			t.Fatalf("the other backend holds %d servers", n)
		}
	}
	const wayOut = `(?s)Unable to reach machine through new account.*machine \d+ \("repoint-1"\) is not reached through the new account.*taint ADDRESS.*state rm ADDRESS.*removed \{\}`
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             e.CheckDestroy,
		Steps: []resource.TestStep{
			{
				Config: deferred(e.Endpoint),
				Check: func(*terraform.State) error {
					id = onlyServer(t, e).ID
					return nil
				},
			},
			{
				PreConfig:   snapshot,
				Config:      cloudOn(other.Endpoint, env, "fsn1"),
				PlanOnly:    true,
				ExpectError: acctest.Match(wayOut),
			},
			{
				PreConfig:   func() { nothingWritten(); snapshot() },
				Config:      deferred(other.Endpoint),
				ExpectError: acctest.Match(`(?s)Error running apply.*not reached through the new account.*taint ADDRESS`),
			},
			{PreConfig: nothingWritten, Config: deferred(e.Endpoint), Check: unchanged(e, &id, &before)},
			{
				// The apply's own plan cannot read the machine through the new
				// account (one 503): Update proves it before writing anything.
				PreConfig: func() {
					snapshot()
					mustRule(t, other, faults.Rule{Method: "GET", Path: "/servers/{id}", Count: 1, Status: 503, Code: "unavailable"})
				},
				Config:      deferred(other.Endpoint),
				ExpectError: acctest.Match(`(?s)Unable to update instance.*machine \d+ \("repoint-1"\) is not reached through the new account.*taint ADDRESS`),
			},
			{PreConfig: nothingWritten, Config: deferred(e.Endpoint), Check: resource.ComposeAggregateTestCheckFunc(unchanged(e, &id, &before), other.FaultsUsedUp)},
		},
	})
}

// TestInstanceImportWithAnotherSpelling imports a server by an id whose
// account part spells the endpoint with a trailing slash: the import takes
// the account as compute_provider_account spells it, so the plan only marks
// the server, and the next plan is empty.
func TestInstanceImportWithAnotherSpelling(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	id := e.AddServer(emu.Server{Name: "spelled-1"})
	env := "env://" + acctest.HetznerCloudTokenEnv
	slashed := adapter.Locator{Kind: "hcloud", Name: "test", Settings: map[string]string{"endpoint": e.Endpoint + "/", "token": env, "location": "fsn1"}}
	cfg := strings.Replace(cloudOn(e.Endpoint, env, "fsn1"), `"repoint-1"`, `"spelled-1"`, 1) + fmt.Sprintf(`
import {
  to = compute_instance.web
  id = %q
}
`, adapter.InstanceID(slashed, strconv.FormatInt(id, 10)))
	var before map[string]int
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             e.CheckDestroy,
		Steps: []resource.TestStep{
			{
				PreConfig: func() { before = acctest.Writes(e.Stats(), accountCheck) },
				Config:    cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					// The import took the account as the configuration spells it.
					acctest.ExpectUnchanged(addr, "account"),
				}},
				Check: func(*terraform.State) error {
					// The only write is the mark on the imported server.
					const mark = "PUT /servers/{id}"
					got := acctest.Writes(e.Stats(), accountCheck)
					if got[mark] != before[mark]+1 {
						return fmt.Errorf("writes %v, want one mark written (before %v)", got, before)
					}
					return acctest.NoWritesSince(before, e.Stats(), accountCheck, mark)
				},
			},
			{Config: cfg, ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}}},
		},
	})
}

// TestInstanceAccountKeysSpelledOtherwiseInStatePlanNothing: a state whose
// account id holds rescue_ssh_keys as written ("ops, ci"), as ids were
// before the list was made canonical there, plans no change: neither the
// account's id nor the instance's account moves.
func TestInstanceAccountKeysSpelledOtherwiseInStatePlanNothing(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	e.AddSSHKey("ops", emu.ExamplePublicKey)
	e.AddSSHKey("ci", emu.ExampleCIPublicKey)
	cli := acctest.NewCLI(t, withRescueKeys(cloudOn(e.Endpoint, "env://"+acctest.HetznerCloudTokenEnv, "fsn1"), "ops, ci"))
	cli.MustRun("apply", "-auto-approve")
	state := cli.Read("terraform.tfstate")
	canonical := `\"rescue_ssh_keys\":\"ops,ci\"`
	if !strings.Contains(state, canonical) {
		t.Fatalf("the account id in state does not hold the keys as %s:\n%s", canonical, state)
	}
	cli.Write("terraform.tfstate", strings.ReplaceAll(state, canonical, `\"rescue_ssh_keys\":\"ops, ci\"`))
	if plan := cli.MustRun("plan", "-detailed-exitcode"); !strings.Contains(plan, "No changes.") {
		t.Errorf("a state whose account id spells the keys as written plans a change:\n%s", plan)
	}
}
