package instance_test

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestInstanceCreateRecordsMachine: a finished create marks the machine as
// recorded in a state.
func TestInstanceCreateRecordsMachine(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             e.CheckDestroy,
		Steps: []resource.TestStep{{
			Config: instance(e, "rec-1"),
			Check:  checkRecorded(e, "rec-1"),
		}},
	})
}

// TestInstanceReplaceBeforeDestroyKeepsMachine: with create_before_destroy,
// a replacement under the same name derives the same create key as the
// machine it replaces. It must not take that machine over (and then delete
// it as the old object): the apply fails with a Conflict and the machine
// stays, still in state.
func TestInstanceReplaceBeforeDestroyKeepsMachine(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	cfg := instance(e, "cbd-1", `lifecycle {
    create_before_destroy = true
  }`)
	var id string
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		CheckDestroy:             e.CheckDestroy,
		Steps: []resource.TestStep{
			{
				Config: cfg,
				Check: resource.ComposeAggregateTestCheckFunc(checkServers(e, 1), func(s *terraform.State) error {
					id = s.RootModule().Resources[addr].Primary.ID
					return nil
				}),
			},
			{
				Config:      cfg,
				Taint:       []string{addr},
				ExpectError: acctest.Match(`already recorded in a Terraform state.*create_before_destroy, give the new instance another name`),
			},
			{
				// The tainted original is still the state's, and still there.
				Config: cfg,
				Check: resource.ComposeAggregateTestCheckFunc(checkServers(e, 1), func(s *terraform.State) error {
					if got := s.RootModule().Resources[addr].Primary.ID; got != id {
						return fmt.Errorf("instance id %s, want the original %s replaced in place of nothing", got, id)
					}
					return nil
				}),
				ExpectError: acctest.Match(`already recorded`),
			},
		},
	})
}

// TestInstanceRecordedElsewhereNotAdopted: a machine another state holds
// under the same account and name is a Conflict for this configuration, not
// an adoption.
func TestInstanceRecordedElsewhereNotAdopted(t *testing.T) {
	t.Parallel()
	e := acctest.NewEmulator(t)
	other := acctest.NewCLI(t, instance(e, "shared-1"))
	other.MustRun("apply", "-auto-approve")
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{{
			Config:      instance(e, "shared-1"),
			ExpectError: acctest.Match(`already recorded in a Terraform state`),
			Check:       checkServers(e, 1),
		}},
	})
	if got := len(e.Live()); got != 1 {
		t.Fatalf("emulator holds %d servers, want the other configuration's one", got)
	}
	other.MustRun("destroy", "-auto-approve")
}

func checkRecorded(e *acctest.Emulator, name string) func(*terraform.State) error {
	return func(*terraform.State) error {
		s, ok := e.ServerNamed(name)
		if !ok || s.Labels[markPrefix+"recorded"] != "true" {
			return fmt.Errorf("server %q: %+v, want the recorded mark", name, s)
		}
		return nil
	}
}
