package acctest

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// The list resource calls of `terraform query` pass through a recorder
// too: the plugin protocol has them outside ProviderServer, which alone the
// recorder embeds, so without these a query through a recorded provider
// would find no list resources. Their results are kept as the actions'
// events are.

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

// displayNameSummary marks a list result's display name kept beside the
// diagnostics.
const displayNameSummary = "display name"

// ListResource keeps each result's diagnostics, and its display name as a
// progress message is kept (InvokeAction): a search for a secret covers
// everything a query printed of what the provider sent.
func (r recorder) ListResource(ctx context.Context, req *tfprotov6.ListResourceRequest) (*tfprotov6.ListResourceServerStream, error) {
	s, err := r.lists()
	if err != nil {
		return nil, err
	}
	stream, err := s.ListResource(ctx, req)
	if stream == nil || stream.Results == nil {
		return stream, err
	}
	results := stream.Results
	stream.Results = func(yield func(tfprotov6.ListResourceResult) bool) {
		for res := range results {
			r.w.add(res.Diagnostics)
			if res.DisplayName != "" {
				// Of no severity: not a diagnostic the provider sent.
				name := &tfprotov6.Diagnostic{Severity: tfprotov6.DiagnosticSeverityInvalid, Detail: res.DisplayName}
				name.Summary = displayNameSummary
				r.w.add([]*tfprotov6.Diagnostic{name})
			}
			if !yield(res) {
				return
			}
		}
	}
	return stream, err
}
