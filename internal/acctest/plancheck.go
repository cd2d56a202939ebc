package acctest

import (
	"context"
	"fmt"
	"reflect"

	"github.com/hashicorp/terraform-plugin-testing/plancheck"
)

// ExpectUnchanged is a plan check that attribute attr of resource addr is
// planned as it is in the prior state (after refresh, or as an import
// left it), known or not: the plan does not touch it.
func ExpectUnchanged(addr, attr string) plancheck.PlanCheck { return unchanged{addr, attr} }

type unchanged struct{ addr, attr string }

func (u unchanged) CheckPlan(_ context.Context, req plancheck.CheckPlanRequest, resp *plancheck.CheckPlanResponse) {
	for _, rc := range req.Plan.ResourceChanges {
		if rc.Address != u.addr || rc.Change == nil {
			continue
		}
		before, _ := rc.Change.Before.(map[string]any)
		after, _ := rc.Change.After.(map[string]any)
		if before == nil {
			resp.Error = fmt.Errorf("%s has no prior state to compare %s with", u.addr, u.attr)
			return
		}
		if !reflect.DeepEqual(before[u.attr], after[u.attr]) {
			resp.Error = fmt.Errorf("%s.%s is planned to change from %v to %v", u.addr, u.attr, before[u.attr], after[u.attr])
		}
		return
	}
	resp.Error = fmt.Errorf("%s is not in the plan", u.addr)
}
