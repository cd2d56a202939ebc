package acctest

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// The recorder passes the action RPCs on too, keeping their diagnostics:
// plugin-go serves actions only from a server that names their methods
// (tfprotov6.ProviderServerWithActions), which an embedded ProviderServer
// does not.
var _ tfprotov6.ActionServer = recorder{}

func (r recorder) actions() (tfprotov6.ActionServer, error) {
	a, ok := r.ProviderServer.(tfprotov6.ActionServer)
	if !ok {
		return nil, fmt.Errorf("the provider server %T serves no actions", r.ProviderServer)
	}
	return a, nil
}

func (r recorder) ValidateActionConfig(ctx context.Context, req *tfprotov6.ValidateActionConfigRequest) (*tfprotov6.ValidateActionConfigResponse, error) {
	a, err := r.actions()
	if err != nil {
		return nil, err
	}
	resp, err := a.ValidateActionConfig(ctx, req)
	if resp != nil {
		r.w.add(resp.Diagnostics)
	}
	return resp, err
}

func (r recorder) PlanAction(ctx context.Context, req *tfprotov6.PlanActionRequest) (*tfprotov6.PlanActionResponse, error) {
	a, err := r.actions()
	if err != nil {
		return nil, err
	}
	resp, err := a.PlanAction(ctx, req)
	if resp != nil {
		r.w.add(resp.Diagnostics)
	}
	return resp, err
}

// progressSummary marks a progress message kept beside the diagnostics.
const progressSummary = "progress"

// InvokeAction keeps the diagnostics of the completed event, and the
// progress messages as warnings would be kept: a search for a secret
// covers everything an action sent.
func (r recorder) InvokeAction(ctx context.Context, req *tfprotov6.InvokeActionRequest) (*tfprotov6.InvokeActionServerStream, error) {
	a, err := r.actions()
	if err != nil {
		return nil, err
	}
	stream, err := a.InvokeAction(ctx, req)
	if stream == nil || stream.Events == nil {
		return stream, err
	}
	events := stream.Events
	stream.Events = func(yield func(tfprotov6.InvokeActionEvent) bool) {
		for ev := range events {
			switch t := ev.Type.(type) {
			case tfprotov6.CompletedInvokeActionEventType:
				r.w.add(t.Diagnostics)
			case tfprotov6.ProgressInvokeActionEventType:
				// Kept as a diagnostic of no severity, so the search for a
				// secret reads it; not one the provider sent.
				progress := &tfprotov6.Diagnostic{Severity: tfprotov6.DiagnosticSeverityInvalid, Detail: t.Message}
				progress.Summary = progressSummary
				r.w.add([]*tfprotov6.Diagnostic{progress})
			}
			if !yield(ev) {
				return
			}
		}
	}
	return stream, err
}
