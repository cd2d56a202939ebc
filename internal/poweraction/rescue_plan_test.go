package poweraction_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// TestRescueLeavesThePlanEmpty: an instance on Robot whose server the
// action booted into rescue reads as it did (running, power on), so its
// next plan is empty, and the rescue password is not in its state. The
// action runs through the protocol between two steps of the Terraform
// run, so every Terraform that runs the tests covers it, 1.11 included,
// which has no actions.
func TestRescueLeavesThePlanEmpty(t *testing.T) {
	t.Parallel()
	r := newMetalRig(t)
	n, mach := r.m.AddServer(t, "AX42")
	config := r.m.AccountAs("", r.tapURL, "") + acctest.InstanceBlock{Resource: "web", Account: "robot", Name: "rescued-1", Offer: "AX42",
		Image: "Ubuntu-2404-noble-amd64-base"}.HCL(`timeouts { delete = "30s" }`)
	var id, claim, account string
	held := func(s *terraform.State) error {
		rs := s.RootModule().Resources["compute_instance.web"].Primary
		id, claim, account = rs.ID, rs.Attributes["claim"], rs.Attributes["account"]
		return nil
	}
	resource.UnitTest(t, resource.TestCase{
		ProtoV6ProviderFactories: acctest.Factories(),
		Steps: []resource.TestStep{
			{Config: config, Check: held},
			{
				PreConfig: func() {
					cfg := (&rig{account: account}).config(id, claim, nil)
					if _, diags := r.p.InvokeAction("compute_instance_rescue", cfg); acctest.HasError(diags) {
						t.Fatalf("invoke: %s", errorsOf(diags))
					}
					if got := mach.Booted(); got != "rescue" {
						t.Fatalf("after the action server %d runs %q, not its rescue system", n, got)
					}
				},
				Config:           config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            func(s *terraform.State) error { return noPassword(t, r, s) },
			},
		},
	})
}

// noPassword fails when a rescue password the webservice answered with is
// in the state.
func noPassword(t *testing.T, r *metalRig, s *terraform.State) error {
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	seen := r.tap.Seen()
	if len(seen) == 0 {
		t.Error("the webservice answered no rescue password, so the state check would pass vacuously")
	}
	for i, pw := range seen {
		if strings.Contains(string(b), pw) {
			t.Errorf("rescue password #%d the webservice answered is in the state", i)
		}
	}
	return nil
}
