package acctest

import (
	"context"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// ActionType is the object type of an action's configuration.
func (p *Proto) ActionType(name string) tftypes.Object {
	p.t.Helper()
	s, ok := p.schemas.ActionSchemas[name]
	if !ok || s.Schema == nil {
		p.t.Fatalf("no action %s", name)
	}
	typ, ok := s.Schema.ValueType().(tftypes.Object)
	if !ok {
		p.t.Fatalf("action %s's schema is a %T, not an object", name, s.Schema.ValueType())
	}
	return typ
}

// ValidateAction validates an action's configuration (attribute values, the
// others null), as terraform validate does, and returns the diagnostics.
func (p *Proto) ValidateAction(name string, config map[string]tftypes.Value) []*tfprotov6.Diagnostic {
	p.t.Helper()
	c := p.actionConfig(name, config)
	resp, err := p.actions().ValidateActionConfig(context.Background(), &tfprotov6.ValidateActionConfigRequest{ActionType: name, Config: &c})
	if err != nil {
		p.t.Fatalf("validate action %s: %v", name, err)
	}
	return resp.Diagnostics
}

// PlanAction plans an action from config, as terraform plan does, and
// returns the diagnostics.
func (p *Proto) PlanAction(name string, config map[string]tftypes.Value) []*tfprotov6.Diagnostic {
	p.t.Helper()
	c := p.actionConfig(name, config)
	resp, err := p.actions().PlanAction(context.Background(), &tfprotov6.PlanActionRequest{ActionType: name, Config: &c})
	if err != nil {
		p.t.Fatalf("plan action %s: %v", name, err)
	}
	return resp.Diagnostics
}

// InvokeAction invokes an action with config, as terraform apply does once
// the plan passed, and returns the progress messages it sent and the
// diagnostics of its completion.
func (p *Proto) InvokeAction(name string, config map[string]tftypes.Value) (progress []string, diags []*tfprotov6.Diagnostic) {
	p.t.Helper()
	c := p.actionConfig(name, config)
	stream, err := p.actions().InvokeAction(context.Background(), &tfprotov6.InvokeActionRequest{ActionType: name, Config: &c})
	if err != nil {
		p.t.Fatalf("invoke action %s: %v", name, err)
	}
	completed := false
	for ev := range stream.Events {
		switch t := ev.Type.(type) {
		case tfprotov6.ProgressInvokeActionEventType:
			progress = append(progress, t.Message)
		case tfprotov6.CompletedInvokeActionEventType:
			diags, completed = t.Diagnostics, true
		}
	}
	if !completed {
		p.t.Fatalf("invoke action %s: the stream ended without a completed event", name)
	}
	return progress, diags
}

func (p *Proto) actionConfig(name string, config map[string]tftypes.Value) tfprotov6.DynamicValue {
	typ := p.ActionType(name)
	return p.dynamic(typ, NullsBut(typ, config))
}

func (p *Proto) actions() tfprotov6.ActionServer {
	p.t.Helper()
	a, ok := p.srv.(tfprotov6.ActionServer)
	if !ok {
		p.t.Fatalf("the provider server %T serves no actions", p.srv)
	}
	return a
}
