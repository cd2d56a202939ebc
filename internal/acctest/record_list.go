package acctest

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// The list resource calls of `terraform query` pass through a recorder
// too: the plugin protocol has them outside ProviderServer, which alone the
// recorder embeds, so without these a query through a recorded provider
// would find no list resources.

func (r recorder) lists() (tfprotov6.ListResourceServer, error) {
	s, ok := r.ProviderServer.(tfprotov6.ListResourceServer)
	if !ok {
		return nil, fmt.Errorf("the recorded provider server (%T) has no list resources", r.ProviderServer)
	}
	return s, nil
}

func (r recorder) ValidateListResourceConfig(ctx context.Context, req *tfprotov6.ValidateListResourceConfigRequest) (*tfprotov6.ValidateListResourceConfigResponse, error) {
	s, err := r.lists()
	if err != nil {
		return nil, err
	}
	resp, err := s.ValidateListResourceConfig(ctx, req)
	if resp != nil {
		r.w.add(resp.Diagnostics)
	}
	return resp, err
}

func (r recorder) ListResource(ctx context.Context, req *tfprotov6.ListResourceRequest) (*tfprotov6.ListResourceServerStream, error) {
	s, err := r.lists()
	if err != nil {
		return nil, err
	}
	return s.ListResource(ctx, req)
}
