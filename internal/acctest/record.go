package acctest

import (
	"context"
	"sync"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// Written keeps every diagnostic a provider served through Record sent to
// the CLI, in order. A secret search belongs here rather than in the CLI's
// output: Terraform 1.15 prints the configuration line a refused value came
// from, so the user's own file shows up in the output whatever the provider
// wrote.
type Written struct {
	mu    sync.Mutex
	diags []*tfprotov6.Diagnostic
}

// Diagnostics returns what the provider sent so far.
func (w *Written) Diagnostics() []*tfprotov6.Diagnostic {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]*tfprotov6.Diagnostic(nil), w.diags...)
}

func (w *Written) add(diags []*tfprotov6.Diagnostic) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.diags = append(w.diags, diags...)
}

// Record wraps factories so that every provider they make keeps its
// diagnostics in the returned Written, from the calls that validate,
// configure, plan, apply, read and import.
func Record(factories map[string]func() (tfprotov6.ProviderServer, error)) (map[string]func() (tfprotov6.ProviderServer, error), *Written) {
	w := &Written{}
	out := map[string]func() (tfprotov6.ProviderServer, error){}
	for name, f := range factories {
		out[name] = func() (tfprotov6.ProviderServer, error) {
			srv, err := f()
			if err != nil {
				return nil, err
			}
			return recorder{ProviderServer: srv, w: w}, nil
		}
	}
	return out, w
}

// recorder passes every call on, keeping the diagnostics of those that
// carry the user's values.
type recorder struct {
	tfprotov6.ProviderServer
	w *Written
}

func (r recorder) ValidateProviderConfig(ctx context.Context, req *tfprotov6.ValidateProviderConfigRequest) (*tfprotov6.ValidateProviderConfigResponse, error) {
	resp, err := r.ProviderServer.ValidateProviderConfig(ctx, req)
	if resp != nil {
		r.w.add(resp.Diagnostics)
	}
	return resp, err
}

func (r recorder) ConfigureProvider(ctx context.Context, req *tfprotov6.ConfigureProviderRequest) (*tfprotov6.ConfigureProviderResponse, error) {
	resp, err := r.ProviderServer.ConfigureProvider(ctx, req)
	if resp != nil {
		r.w.add(resp.Diagnostics)
	}
	return resp, err
}

func (r recorder) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	resp, err := r.ProviderServer.ValidateResourceConfig(ctx, req)
	if resp != nil {
		r.w.add(resp.Diagnostics)
	}
	return resp, err
}

func (r recorder) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	resp, err := r.ProviderServer.PlanResourceChange(ctx, req)
	if resp != nil {
		r.w.add(resp.Diagnostics)
	}
	return resp, err
}

func (r recorder) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	resp, err := r.ProviderServer.ApplyResourceChange(ctx, req)
	if resp != nil {
		r.w.add(resp.Diagnostics)
	}
	return resp, err
}

func (r recorder) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	resp, err := r.ProviderServer.ReadResource(ctx, req)
	if resp != nil {
		r.w.add(resp.Diagnostics)
	}
	return resp, err
}

func (r recorder) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	resp, err := r.ProviderServer.ImportResourceState(ctx, req)
	if resp != nil {
		r.w.add(resp.Diagnostics)
	}
	return resp, err
}

func (r recorder) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	resp, err := r.ProviderServer.ValidateDataResourceConfig(ctx, req)
	if resp != nil {
		r.w.add(resp.Diagnostics)
	}
	return resp, err
}

func (r recorder) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	resp, err := r.ProviderServer.ReadDataSource(ctx, req)
	if resp != nil {
		r.w.add(resp.Diagnostics)
	}
	return resp, err
}
