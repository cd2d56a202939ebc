package main

import (
	"context"
	"errors"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
)

// capturing keeps the context each per-resource request got, and checks
// that the request's values reach it while the request runs.
type capturing struct {
	tfprotov6.ProviderServer
	t   *testing.T
	got context.Context
}

type rpcKey struct{}

func (c *capturing) seen(ctx context.Context) {
	if ctx.Value(rpcKey{}) != "request" {
		c.t.Error("the request's values do not reach the framework while it runs")
	}
	c.got = ctx
}

func (c *capturing) ValidateResourceConfig(ctx context.Context, _ *tfprotov6.ValidateResourceConfigRequest) (*tfprotov6.ValidateResourceConfigResponse, error) {
	c.seen(ctx)
	return nil, nil
}

func (c *capturing) UpgradeResourceState(ctx context.Context, _ *tfprotov6.UpgradeResourceStateRequest) (*tfprotov6.UpgradeResourceStateResponse, error) {
	c.seen(ctx)
	return nil, nil
}

func (c *capturing) UpgradeResourceIdentity(ctx context.Context, _ *tfprotov6.UpgradeResourceIdentityRequest) (*tfprotov6.UpgradeResourceIdentityResponse, error) {
	c.seen(ctx)
	return nil, nil
}

func (c *capturing) ReadResource(ctx context.Context, _ *tfprotov6.ReadResourceRequest) (*tfprotov6.ReadResourceResponse, error) {
	c.seen(ctx)
	return nil, nil
}

func (c *capturing) PlanResourceChange(ctx context.Context, _ *tfprotov6.PlanResourceChangeRequest) (*tfprotov6.PlanResourceChangeResponse, error) {
	c.seen(ctx)
	return nil, nil
}

func (c *capturing) ApplyResourceChange(ctx context.Context, _ *tfprotov6.ApplyResourceChangeRequest) (*tfprotov6.ApplyResourceChangeResponse, error) {
	c.seen(ctx)
	return nil, nil
}

func (c *capturing) ImportResourceState(ctx context.Context, _ *tfprotov6.ImportResourceStateRequest) (*tfprotov6.ImportResourceStateResponse, error) {
	c.seen(ctx)
	return nil, nil
}

func (c *capturing) ValidateDataResourceConfig(ctx context.Context, _ *tfprotov6.ValidateDataResourceConfigRequest) (*tfprotov6.ValidateDataResourceConfigResponse, error) {
	c.seen(ctx)
	return nil, nil
}

func (c *capturing) ReadDataSource(ctx context.Context, _ *tfprotov6.ReadDataSourceRequest) (*tfprotov6.ReadDataSourceResponse, error) {
	c.seen(ctx)
	return nil, nil
}

// TestRequestsLetGoOfTheirContext: the framework keeps every request's
// context until StopProvider; what it keeps must not hold the request's
// values (the gRPC stream, the loggers) once the request is answered, or a
// provider holds every request of a command: 630 MiB for 1,000 instances.
func TestRequestsLetGoOfTheirContext(t *testing.T) {
	c := &capturing{t: t}
	s := releasing(c)
	for name, call := range map[string]func(context.Context){
		"ValidateResourceConfig": func(ctx context.Context) { _, _ = s.ValidateResourceConfig(ctx, nil) },
		"UpgradeResourceState":   func(ctx context.Context) { _, _ = s.UpgradeResourceState(ctx, nil) },
		"UpgradeResourceIdentity": func(ctx context.Context) {
			_, _ = s.UpgradeResourceIdentity(ctx, nil)
		},
		"ReadResource":        func(ctx context.Context) { _, _ = s.ReadResource(ctx, nil) },
		"PlanResourceChange":  func(ctx context.Context) { _, _ = s.PlanResourceChange(ctx, nil) },
		"ApplyResourceChange": func(ctx context.Context) { _, _ = s.ApplyResourceChange(ctx, nil) },
		"ImportResourceState": func(ctx context.Context) { _, _ = s.ImportResourceState(ctx, nil) },
		"ValidateDataResourceConfig": func(ctx context.Context) {
			_, _ = s.ValidateDataResourceConfig(ctx, nil)
		},
		"ReadDataSource": func(ctx context.Context) { _, _ = s.ReadDataSource(ctx, nil) },
	} {
		c.got = nil
		ctx, cancel := context.WithCancel(context.WithValue(context.Background(), rpcKey{}, "request"))
		call(ctx)
		if c.got == nil {
			t.Fatalf("%s did not reach the framework", name)
		}
		kept := c.got
		if kept.Value(rpcKey{}) != nil {
			t.Errorf("%s: the context the framework keeps still holds the request's values after the answer", name)
		}
		if !errors.Is(kept.Err(), context.Canceled) {
			t.Errorf("%s: the kept context reports %v after the answer; want it over", name, kept.Err())
		}
		select {
		case <-kept.Done():
		default:
			t.Errorf("%s: the kept context reports %v but its Done channel is open", name, kept.Err())
		}
		cancel()
	}
}

// While a request runs, its context is the request's: cancelled with it,
// with its deadline.
func TestReleasableReadsThroughWhileRunning(t *testing.T) {
	parent, cancel := context.WithCancel(context.Background())
	ctx, done := release(parent)
	defer done()
	if ctx.Err() != nil {
		t.Fatalf("a running request's context is over: %v", ctx.Err())
	}
	child, stop := context.WithCancel(ctx)
	defer stop()
	cancel()
	<-child.Done()
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Errorf("cancelling the request: %v", ctx.Err())
	}
}

// Code that takes Done while the request runs and waits on it after the
// answer must see what Err says: the same channel, closed.
func TestReleasedDoneAgreesWithErr(t *testing.T) {
	ctx, done := release(context.Background())
	waiting := ctx.Done()
	if ctx.Err() != nil {
		t.Fatalf("a running request's context is over: %v", ctx.Err())
	}
	done()
	if !errors.Is(ctx.Err(), context.Canceled) {
		t.Fatalf("an answered request's context reports %v; want it over", ctx.Err())
	}
	select {
	case <-waiting:
	default:
		t.Error("Err says the request is over, but the Done channel taken while it ran is open")
	}
	if ctx.Done() != waiting {
		t.Error("Done returned another channel after the answer")
	}
}

// streaming serves a list resource and an action whose streams are read
// after the call has returned, as the framework's are: each reports what
// it finds of the request's context when read, "" for the request's own
// (not over, its values there).
type streaming struct{ tfprotov6.ProviderServer }

// late is what a stream read after its call returned finds of ctx.
func late(ctx context.Context) string {
	switch {
	case ctx.Err() != nil:
		return "the request's context is over: " + ctx.Err().Error()
	case ctx.Value(rpcKey{}) != "request":
		return "the request's values do not reach the stream"
	}
	return ""
}

func (streaming) ValidateListResourceConfig(context.Context, *tfprotov6.ValidateListResourceConfigRequest) (*tfprotov6.ValidateListResourceConfigResponse, error) {
	return &tfprotov6.ValidateListResourceConfigResponse{}, nil
}

func (streaming) ListResource(ctx context.Context, _ *tfprotov6.ListResourceRequest) (*tfprotov6.ListResourceServerStream, error) {
	return &tfprotov6.ListResourceServerStream{Results: func(yield func(tfprotov6.ListResourceResult) bool) {
		yield(tfprotov6.ListResourceResult{DisplayName: late(ctx)})
	}}, nil
}

func (streaming) ValidateActionConfig(context.Context, *tfprotov6.ValidateActionConfigRequest) (*tfprotov6.ValidateActionConfigResponse, error) {
	return &tfprotov6.ValidateActionConfigResponse{}, nil
}

func (streaming) PlanAction(context.Context, *tfprotov6.PlanActionRequest) (*tfprotov6.PlanActionResponse, error) {
	return &tfprotov6.PlanActionResponse{}, nil
}

func (streaming) InvokeAction(ctx context.Context, _ *tfprotov6.InvokeActionRequest) (*tfprotov6.InvokeActionServerStream, error) {
	return &tfprotov6.InvokeActionServerStream{Events: func(yield func(tfprotov6.InvokeActionEvent) bool) {
		yield(tfprotov6.InvokeActionEvent{Type: tfprotov6.ProgressInvokeActionEventType{Message: late(ctx)}})
	}}, nil
}

// request is a context as a request's, with a value of its own.
func request(t *testing.T) context.Context {
	ctx, cancel := context.WithCancel(context.WithValue(context.Background(), rpcKey{}, "request"))
	t.Cleanup(cancel)
	return ctx
}
