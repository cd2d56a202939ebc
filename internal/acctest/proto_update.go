package acctest

import (
	"context"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// Updated is what a planned and applied update returned.
type Updated struct {
	Plan  *tfprotov6.PlanResourceChangeResponse
	Apply *tfprotov6.ApplyResourceChangeResponse // nil when the plan failed
}

// Update plans and applies an update of resource from the state and
// identity prior left (a create's or an earlier update's answer) to config,
// sending the prior identity as Terraform 1.12 and later do. The proposed
// new state is the prior state with config's values over it, which is
// Terraform's for a configuration that sets the same attributes as the one
// prior was made from.
func (p *Proto) Update(resource string, prior *tfprotov6.ApplyResourceChangeResponse, config map[string]tftypes.Value) Updated {
	p.t.Helper()
	typ := p.Type(resource)
	priorValue, err := prior.NewState.Unmarshal(typ)
	if err != nil {
		p.t.Fatal(err)
	}
	var attrs map[string]tftypes.Value
	if err := priorValue.As(&attrs); err != nil {
		p.t.Fatal(err)
	}
	for k, v := range config {
		attrs[k] = v
	}
	proposed := p.dynamic(typ, tftypes.NewValue(typ, attrs))
	c := p.dynamic(typ, NullsBut(typ, config))
	ctx := context.Background()
	plan, err := p.srv.PlanResourceChange(ctx, &tfprotov6.PlanResourceChangeRequest{
		TypeName: resource, PriorState: prior.NewState, ProposedNewState: &proposed, Config: &c,
		PriorPrivate: prior.Private, PriorIdentity: prior.NewIdentity,
	})
	if err != nil {
		p.t.Fatalf("plan %s: %v", resource, err)
	}
	out := Updated{Plan: plan}
	if HasError(plan.Diagnostics) {
		return out
	}
	out.Apply, err = p.srv.ApplyResourceChange(ctx, &tfprotov6.ApplyResourceChangeRequest{
		TypeName: resource, PriorState: prior.NewState, PlannedState: plan.PlannedState, Config: &c,
		PlannedPrivate: plan.PlannedPrivate, PlannedIdentity: plan.PlannedIdentity,
	})
	if err != nil {
		p.t.Fatalf("apply %s: %v", resource, err)
	}
	return out
}
