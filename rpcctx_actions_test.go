package main

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// TestServedProviderHasActions: the server main serves names the action
// calls, so plugin-go passes Terraform's ValidateActionConfig, PlanAction
// and InvokeAction on to the framework instead of answering "not
// implemented"; an invocation runs and completes through it.
func TestServedProviderHasActions(t *testing.T) {
	s := releasing(providerserver.NewProtocol6(provider.New("test")())())
	a, ok := s.(tfprotov6.ActionServer)
	if !ok {
		t.Fatalf("the served provider %T does not serve actions", s)
	}
	ctx := context.Background()
	schemas, err := s.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	const name = "compute_instance_reboot"
	as, ok := schemas.ActionSchemas[name]
	if !ok {
		t.Fatalf("no action %s among %d", name, len(schemas.ActionSchemas))
	}
	typ := as.Schema.ValueType()
	cfg, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, nil))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := a.ValidateActionConfig(ctx, &tfprotov6.ValidateActionConfigRequest{ActionType: name, Config: &cfg}); err != nil {
		t.Errorf("validate: %v", err)
	}
	if _, err := a.PlanAction(ctx, &tfprotov6.PlanActionRequest{ActionType: name, Config: &cfg}); err != nil {
		t.Errorf("plan: %v", err)
	}
	stream, err := a.InvokeAction(ctx, &tfprotov6.InvokeActionRequest{ActionType: name, Config: &cfg})
	if err != nil {
		t.Fatalf("invoke: %v", err)
	}
	var done []string
	for ev := range stream.Events {
		if c, ok := ev.Type.(tfprotov6.CompletedInvokeActionEventType); ok {
			for _, d := range c.Diagnostics {
				done = append(done, d.Summary+": "+d.Detail)
			}
			done = append(done, "completed")
		}
	}
	// Unconfigured, the action says so: it ran.
	if got := strings.Join(done, "\n"); !strings.Contains(got, "completed") || !strings.Contains(got, "Unable to reboot machine") {
		t.Errorf("the invocation's completion: %q", got)
	}
}

// TestActionStreamKeepsTheRequestsContext: the framework runs an
// invocation while Terraform reads its events, after InvokeAction has
// returned, so the stream must find the request's context as it was, not
// one let go of with the answer, which would end every action at its
// first event.
func TestActionStreamKeepsTheRequestsContext(t *testing.T) {
	a, ok := releasing(streaming{}).(tfprotov6.ActionServer)
	if !ok {
		t.Fatal("the served provider does not serve actions")
	}
	stream, err := a.InvokeAction(request(t), &tfprotov6.InvokeActionRequest{ActionType: "compute_instance_reboot"})
	if err != nil {
		t.Fatal(err)
	}
	read := 0
	for ev := range stream.Events {
		read++
		if p, ok := ev.Type.(tfprotov6.ProgressInvokeActionEventType); !ok || p.Message != "" {
			t.Errorf("read after InvokeAction returned, %+v", ev.Type)
		}
	}
	if read != 1 {
		t.Errorf("the stream gave %d events; want 1", read)
	}
}
