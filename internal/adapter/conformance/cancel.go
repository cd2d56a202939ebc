package conformance

import (
	"context"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Rule 7, honour the context (internal/adapter's package documentation):
// Terraform's Ctrl-C and timeouts cancel the context, and every call must
// return soon after, even while the backend holds its request. The request
// bound of the adapter under test is an hour here, so what ends the call can
// only be the cancellation.

const (
	// cancelAfter is when each call's context is cancelled.
	cancelAfter = 100 * time.Millisecond
	// promptly is generous: the machine is shared, and the point is to
	// tell seconds from the hour the request would otherwise hang.
	promptly = 10 * time.Second
)

// callsReturnOnCancel runs every call of the contract against a backend that
// never answers and cancels it.
func callsReturnOnCancel(t *testing.T, s *suite) {
	f := s.needFaults(t)
	n := name(t, "cancel")
	m := s.mustCreate(t, s.call(n), s.request(n))
	s.settle(t, m.ID)
	a := s.reopen(t, func(env *adapter.Env) { env.RequestTimeout = time.Hour })
	if err := f.FailNext(OpAny, FaultHang, 0); err != nil {
		t.Fatalf("FailNext(any, hang): %v", err)
	}
	defer f.Clear()

	calls := map[string]func(ctx context.Context) error{
		"ListOffers": func(ctx context.Context) error { _, err := a.ListOffers(ctx, adapter.Query{}); return err },
		"Create": func(ctx context.Context) error {
			n := name(t, "cancelled")
			_, err := a.Create(ctx, s.call(n), s.request(n))
			return err
		},
		"Get":    func(ctx context.Context) error { _, err := a.Get(ctx, m.ID); return err },
		"Delete": func(ctx context.Context) error { return a.Delete(ctx, m.ID) },
	}
	if p, ok := a.(adapter.Powerer); ok {
		calls["Power"] = func(ctx context.Context) error { return p.Power(ctx, m.ID, adapter.PowerOff) }
	}
	if u, ok := a.(adapter.Updater); ok {
		calls["Update"] = func(ctx context.Context) error {
			_, err := u.Update(ctx, m.ID, s.change(t, "cancelled"))
			return err
		}
	}
	if l, ok := a.(adapter.Lister); ok {
		calls["List"] = func(ctx context.Context) error { _, err := l.List(ctx); return err }
	}
	if c, ok := a.(adapter.Checker); ok {
		calls["Check"] = c.Check
	}
	if v, ok := a.(adapter.Validator); ok {
		calls["Validate"] = func(ctx context.Context) error { return v.Validate(ctx, s.request(name(t, "v"))) }
	}
	for what, call := range calls {
		t.Run(what, func(t *testing.T) {
			// Cancelled as Ctrl-C cancels Terraform's context, while the
			// request waits for the silent backend.
			ctx, cancel := context.WithCancel(s.logged())
			defer time.AfterFunc(cancelAfter, cancel).Stop()
			defer cancel()
			done := make(chan error, 1)
			go func() { done <- call(ctx) }()
			bound := time.NewTimer(cancelAfter + promptly)
			defer bound.Stop()
			select {
			case err := <-done:
				if err == nil {
					t.Fatalf("%s succeeded although the backend never answered", what)
				}
				if adapter.IsNotFound(err) {
					t.Fatalf("%s is NotFound after a cancellation: %v", what, err)
				}
				if c := adapter.CodeOf(err); c != adapter.Transient {
					t.Errorf("%s cancelled: got %v (code %s), want Transient: the caller's own context decides", what, err, c)
				}
			case <-bound.C:
				t.Fatalf("%s did not return within %s of its cancellation", what, promptly)
			}
		})
	}
}
