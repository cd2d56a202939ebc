package main

import (
	"context"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// The action RPCs pass through with the request's own context: the
// framework runs an invocation while Terraform reads its stream of
// events, after InvokeAction has returned, so a context released with the
// answer would end every action at its first event. The wrapper must name
// them: plugin-go finds them by asserting the optional interface
// tfprotov6.ProviderServerWithActions on the server it serves, which an
// embedded ProviderServer does not satisfy.
var _ tfprotov6.ActionServer = releasingServer{}

// actions is the wrapped server's action half.
func (s releasingServer) actions() (tfprotov6.ActionServer, error) {
	return half[tfprotov6.ActionServer](s.ProviderServer, "actions")
}

func (s releasingServer) ValidateActionConfig(ctx context.Context, req *tfprotov6.ValidateActionConfigRequest) (*tfprotov6.ValidateActionConfigResponse, error) {
	a, err := s.actions()
	if err != nil {
		return nil, err
	}
	return a.ValidateActionConfig(ctx, req)
}

func (s releasingServer) PlanAction(ctx context.Context, req *tfprotov6.PlanActionRequest) (*tfprotov6.PlanActionResponse, error) {
	a, err := s.actions()
	if err != nil {
		return nil, err
	}
	return a.PlanAction(ctx, req)
}

func (s releasingServer) InvokeAction(ctx context.Context, req *tfprotov6.InvokeActionRequest) (*tfprotov6.InvokeActionServerStream, error) {
	a, err := s.actions()
	if err != nil {
		return nil, err
	}
	return a.InvokeAction(ctx, req)
}
