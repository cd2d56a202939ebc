package main

import (
	"context"
	"sync/atomic"
	"time"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// The plugin framework (proto6server.registerContext) derives a cancellable
// context from every request's and keeps its cancel function until
// StopProvider, which Terraform sends only when a command is interrupted.
// Each of those keeps the request's whole context alive: the gRPC stream and
// the loggers terraform-plugin-go puts there, about 30 KiB a request. A plan
// and an apply of 1,000 instances make several thousand requests, and the
// provider held them all: 630 MiB at its peak.
//
// releasing hands the framework, for the requests Terraform sends per
// resource, a context that lets go of the request's when the request has
// been answered. While it runs, the framework and the provider see the
// request's context as it is (values, deadline, cancellation).

// releasing wraps the framework's server.
func releasing(s tfprotov6.ProviderServer) tfprotov6.ProviderServer { return releasingServer{s} }

type releasingServer struct{ tfprotov6.ProviderServer }

// release returns a context that reads through to ctx until done is called,
// and from then on carries no value and reports the request as over
// (context.Canceled); its Done channel is ctx's.
func release(ctx context.Context) (context.Context, func()) {
	r := &releasable{done: ctx.Done()}
	r.inner.Store(&ctx)
	return r, func() { r.inner.Store(&answered) }
}

// answered is what a released context reads through to.
var answered = func() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}()

type releasable struct {
	inner atomic.Pointer[context.Context]
	done  <-chan struct{}
}

func (r *releasable) ctx() context.Context                    { return *r.inner.Load() }
func (r *releasable) Deadline() (deadline time.Time, ok bool) { return r.ctx().Deadline() }
func (r *releasable) Done() <-chan struct{}                   { return r.done }
func (r *releasable) Err() error                              { return r.ctx().Err() }
func (r *releasable) Value(key any) any                       { return r.ctx().Value(key) }

func (s releasingServer) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	ctx, done := release(ctx)
	defer done()
	return s.ProviderServer.ValidateResourceConfig(ctx, req)
}

func (s releasingServer) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	ctx, done := release(ctx)
	defer done()
	return s.ProviderServer.UpgradeResourceState(ctx, req)
}

func (s releasingServer) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	ctx, done := release(ctx)
	defer done()
	return s.ProviderServer.ReadResource(ctx, req)
}

func (s releasingServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	ctx, done := release(ctx)
	defer done()
	return s.ProviderServer.PlanResourceChange(ctx, req)
}

func (s releasingServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	ctx, done := release(ctx)
	defer done()
	return s.ProviderServer.ApplyResourceChange(ctx, req)
}

func (s releasingServer) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	ctx, done := release(ctx)
	defer done()
	return s.ProviderServer.ImportResourceState(ctx, req)
}

func (s releasingServer) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	ctx, done := release(ctx)
	defer done()
	return s.ProviderServer.ValidateDataResourceConfig(ctx, req)
}

func (s releasingServer) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	ctx, done := release(ctx)
	defer done()
	return s.ProviderServer.ReadDataSource(ctx, req)
}
