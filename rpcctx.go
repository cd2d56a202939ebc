package main

import (
	"context"
	"fmt"
	"sync"
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
// and from then on carries no value and reports the request as over. Its
// Done channel is its own, closed when ctx ends or at done, whichever comes
// first, and Err is nil until then: Done and Err always agree, as the
// context.Context contract requires of code that checks Err and then waits
// on Done.
func release(ctx context.Context) (context.Context, func()) {
	r := &releasable{done: make(chan struct{})}
	r.inner.Store(&ctx)
	stop := context.AfterFunc(ctx, func() { r.end(ctx.Err()) })
	return r, func() {
		r.inner.Store(&answered)
		stop()
		r.end(context.Canceled)
	}
}

// released runs one request of the framework's server f on a context that
// lets go of ctx when f has answered.
func released[Q, R any](ctx context.Context, req Q, f func(context.Context, Q) (R, error)) (R, error) {
	ctx, done := release(ctx)
	defer done()
	return f(ctx, req)
}

// half is the part T of the wrapped server s that plugin-go finds by
// asserting an optional interface (list resources, actions), which the
// wrapper passes on with the request's own context; what names it.
func half[T any](s tfprotov6.ProviderServer, what string) (T, error) {
	h, ok := s.(T)
	if !ok {
		return h, fmt.Errorf("the provider server %T serves no %s; this is a bug in the provider", s, what)
	}
	return h, nil
}

// answered is what a released context reads through to.
var answered = func() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}()

type releasable struct {
	inner atomic.Pointer[context.Context]
	done  chan struct{}
	once  sync.Once
	err   error // set once, before done is closed
}

// end closes done with err, once.
func (r *releasable) end(err error) {
	r.once.Do(func() {
		r.err = err
		close(r.done)
	})
}

func (r *releasable) ctx() context.Context                    { return *r.inner.Load() }
func (r *releasable) Deadline() (deadline time.Time, ok bool) { return r.ctx().Deadline() }
func (r *releasable) Done() <-chan struct{}                   { return r.done }
func (r *releasable) Value(key any) any                       { return r.ctx().Value(key) }

func (r *releasable) Err() error {
	select {
	case <-r.done:
		return r.err
	default:
		return nil
	}
}

func (s releasingServer) ValidateResourceConfig(ctx context.Context, req *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	return released(ctx, req, s.ProviderServer.ValidateResourceConfig)
}

func (s releasingServer) UpgradeResourceState(ctx context.Context, req *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	return released(ctx, req, s.ProviderServer.UpgradeResourceState)
}

// UpgradeResourceIdentity is called only when a stored identity's version
// differs from the schema's (none yet: version 0), but the framework keeps
// its context as it keeps the others', so it is let go of the same way.
func (s releasingServer) UpgradeResourceIdentity(ctx context.Context, req *tfprotov6.UpgradeResourceIdentityRequest) (*tfprotov6.UpgradeResourceIdentityResponse, error) {
	return released(ctx, req, s.ProviderServer.UpgradeResourceIdentity)
}

func (s releasingServer) ReadResource(ctx context.Context, req *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	return released(ctx, req, s.ProviderServer.ReadResource)
}

func (s releasingServer) PlanResourceChange(ctx context.Context, req *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	return released(ctx, req, s.ProviderServer.PlanResourceChange)
}

func (s releasingServer) ApplyResourceChange(ctx context.Context, req *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	return released(ctx, req, s.ProviderServer.ApplyResourceChange)
}

func (s releasingServer) ImportResourceState(ctx context.Context, req *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	return released(ctx, req, s.ProviderServer.ImportResourceState)
}

func (s releasingServer) ValidateDataResourceConfig(ctx context.Context, req *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	return released(ctx, req, s.ProviderServer.ValidateDataResourceConfig)
}

func (s releasingServer) ReadDataSource(ctx context.Context, req *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	return released(ctx, req, s.ProviderServer.ReadDataSource)
}
