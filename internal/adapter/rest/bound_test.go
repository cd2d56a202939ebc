package rest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// The credentials are resolved within the request's own bound, so a slow
// resolver is bounded too: the caller's context here has no deadline, and
// Authenticate's has one.
func TestAuthenticateIsWithinTheBound(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte(`{}`)) }))
	defer srv.Close()
	bounded := false
	r := newRig(t, srv.URL, func(c *Config) {
		inner := c.Authenticate
		c.Authenticate = func(ctx context.Context, req *http.Request) ([]string, error) {
			_, bounded = ctx.Deadline()
			return inner(ctx, req)
		}
	})
	if err := r.Get(context.Background(), "/a", nil); err != nil {
		t.Fatal(err)
	}
	if !bounded {
		t.Error("Authenticate ran on the caller's unbounded context, not the request's bound")
	}
}

// A route that does not fit its arguments is the provider's fault:
// InvalidInput, which no retry repeats, with nothing sent.
func TestUnbuildableRequestIsInvalidInput(t *testing.T) {
	var sent atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { sent.Add(1) }))
	defer srv.Close()
	r := newRig(t, srv.URL, nil)
	for _, args := range [][]string{nil, {"1", "2"}} {
		if err := r.Get(t.Context(), "/server/{id}", nil, args...); adapter.CodeOf(err) != adapter.InvalidInput {
			t.Errorf("args %q: %v, want InvalidInput", args, err)
		}
	}
	if sent.Load() != 0 || r.resolved.Load() != 0 {
		t.Errorf("%d requests sent and %d credentials resolved for requests that cannot be built", sent.Load(), r.resolved.Load())
	}
}
