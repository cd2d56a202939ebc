package machines_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

const (
	ds = "data.compute_machines.fleet"
	// mark is the label every machine the provider manages carries; the
	// emulator shows labels as the API stores them.
	mark = "compute.seedcompute.io/managed"
)

// inventory is the account and the data source alone.
func inventory(e *acctest.Emulator) string {
	return e.Account() + `
data "compute_machines" "fleet" {
  accounts    = [compute_provider_account.test.id]
  name_prefix = "web-"
}
`
}

// fleet is the adoption pattern the example shows: every machine whose name
// starts with web- is an instance, and those not yet managed are imported.
func fleet(e *acctest.Emulator) string {
	return inventory(e) + `
import {
  for_each = { for m in data.compute_machines.fleet.machines : m.name => m if !m.managed }
  to       = compute_instance.fleet[each.key]
  id       = each.value.id
}

resource "compute_instance" "fleet" {
  for_each = { for m in data.compute_machines.fleet.machines : m.name => m }
  account  = compute_provider_account.test.id
  name     = each.value.name
  offer_id = each.value.offer_id
  image    = each.value.image
  location = each.value.location
  labels   = each.value.labels
}
`
}

func instanceAt(name string) string { return fmt.Sprintf("compute_instance.fleet[%q]", name) }

// TestMachinesAdoptFleet seeds three servers the provider did not create and
// one that is not part of the fleet. With the account applied (import
// for_each must be known at plan, and Terraform defers reading a data source
// whose account has changes pending), compute_machines shows the three as
// not managed; one apply imports them through import blocks fed by it and
// marks them; the next plan is empty, and compute_machines then shows them
// as managed.
func TestMachinesAdoptFleet(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	names := []string{"web-1", "web-2", "web-3"}
	ids := map[string]int64{}
	for i, n := range names {
		ids[n] = e.AddServer(emu.Server{Name: n, Labels: map[string]string{"role": "web", "n": fmt.Sprint(i)}})
	}
	other := e.AddServer(emu.Server{Name: "db-1", Labels: map[string]string{"role": "db"}})
	var importPlan, destroyPlan []plancheck.PlanCheck
	for _, n := range names {
		// An import whose first apply writes the mark is an in-place update.
		importPlan = append(importPlan, plancheck.ExpectResourceAction(instanceAt(n), plancheck.ResourceActionUpdate))
		destroyPlan = append(destroyPlan, plancheck.ExpectResourceAction(instanceAt(n), plancheck.ResourceActionDestroy))
	}
	cleanPlan := []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}
	managed := func(want bool) statecheck.StateCheck {
		checks := make([]knownvalue.Check, len(names))
		for i, n := range names {
			checks[i] = knownvalue.ObjectPartial(map[string]knownvalue.Check{
				"name":    knownvalue.StringExact(n),
				"managed": knownvalue.Bool(want),
				"id":      knownvalue.StringRegexp(instanceID(ids[n])),
			})
		}
		return statecheck.ExpectKnownValue(ds, tfjsonpath.New("machines"), knownvalue.ListExact(checks))
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{
				Config:            inventory(e),
				ConfigStateChecks: []statecheck.StateCheck{managed(false)},
			},
			{
				Config:           fleet(e),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: importPlan},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(instanceAt("web-2"), tfjsonpath.New("managed"), knownvalue.Bool(true)),
					statecheck.ExpectKnownValue(instanceAt("web-2"), tfjsonpath.New("labels"), knownvalue.MapExact(map[string]knownvalue.Check{
						"role": knownvalue.StringExact("web"), "n": knownvalue.StringExact("1"),
					})),
					emulatorCheck(func() error {
						for _, n := range names {
							s, ok := e.Server(ids[n])
							if !ok || s.Labels[mark] != "true" {
								return fmt.Errorf("%s after the import apply: %+v, want it marked and kept", n, s)
							}
						}
						if s, _ := e.Server(other); s.Labels[mark] != "" {
							return fmt.Errorf("db-1 was marked: %v", s.Labels)
						}
						if len(e.Live()) != 4 {
							return fmt.Errorf("the import created or deleted servers: %v", e.Live())
						}
						return nil
					}),
				},
			},
			{
				Config:           fleet(e),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: cleanPlan},
				ConfigStateChecks: []statecheck.StateCheck{managed(true), emulatorCheck(func() error {
					if n := e.Stats()["POST /servers"]; n != 0 {
						return fmt.Errorf("%d creates, want none", n)
					}
					return nil
				})},
			},
			{
				// terraform-plugin-testing's state shim, which its destroy at
				// the end of a test reads, refuses for_each instances: the
				// fleet is destroyed here instead. It is managed now, so
				// it goes; db-1 was never imported and stays.
				Config:           inventory(e),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: destroyPlan},
				ConfigStateChecks: []statecheck.StateCheck{emulatorCheck(func() error {
					if live := e.Live(); len(live) != 1 || live[0].ID != other {
						return fmt.Errorf("after the fleet was destroyed the emulator holds %v, want only db-1", live)
					}
					return nil
				})},
			},
		},
	})
}
