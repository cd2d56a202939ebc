package main

import (
	"context"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// The list resource calls of `terraform query` pass through with the
// request's own context, as the action calls do: the framework streams a
// listing's results while Terraform reads them, after ListResource has
// returned. plugin-go finds them by asserting tfprotov6.ListResourceServer
// on the server it serves, which an embedded ProviderServer does not
// satisfy.
var _ tfprotov6.ListResourceServer = releasingServer{}

// lists is the wrapped server's list resource half.
func (s releasingServer) lists() (tfprotov6.ListResourceServer, error) {
	return half[tfprotov6.ListResourceServer](s.ProviderServer, "list resources")
}

func (s releasingServer) ValidateListResourceConfig(ctx context.Context, req *tfprotov6.ValidateListResourceConfigRequest) (*tfprotov6.ValidateListResourceConfigResponse, error) {
	l, err := s.lists()
	if err != nil {
		return nil, err
	}
	return l.ValidateListResourceConfig(ctx, req)
}

func (s releasingServer) ListResource(ctx context.Context, req *tfprotov6.ListResourceRequest) (*tfprotov6.ListResourceServerStream, error) {
	l, err := s.lists()
	if err != nil {
		return nil, err
	}
	return l.ListResource(ctx, req)
}
