package account_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// planError is an account body that must fail to plan with want.
type planError struct {
	config string
	want   string
}

// expectPlanErrors plans each case's account, prefix before its body, and
// expects its error.
func expectPlanErrors(t *testing.T, prefix string, cases map[string]planError) {
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			resource.UnitTest(t, resource.TestCase{
				ProtoV6ProviderFactories: acctest.Factories(),
				Steps: []resource.TestStep{{
					Config:      "resource \"compute_provider_account\" \"test\" {\n  " + prefix + c.config + "\n}\n",
					PlanOnly:    true,
					ExpectError: acctest.Match(c.want),
				}},
			})
		})
	}
}
