package power

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// instant is a clock whose waits are over at once.
type instant struct{}

func (instant) Now() time.Time { return time.Now() }

func (instant) After(time.Duration) <-chan time.Time {
	c := make(chan time.Time, 1)
	c <- time.Now()
	return c
}

// goneDown is an adapter whose machine is pending at the first read and
// whose endpoint refuses every request after it; its cancel ends the
// caller's context after many reads, so a wait that never gives up on its
// own still ends.
type goneDown struct {
	mu     sync.Mutex
	reads  int
	cancel context.CancelFunc
}

func (g *goneDown) Kind() string                         { return "down" }
func (g *goneDown) Delete(context.Context, string) error { return nil }
func (g *goneDown) Power(context.Context, string, adapter.PowerAction) error {
	return nil
}

func (g *goneDown) ListOffers(context.Context, adapter.Query) ([]adapter.Offer, error) {
	return nil, nil
}

func (g *goneDown) Create(context.Context, adapter.Call, adapter.CreateRequest) (adapter.Machine, error) {
	return adapter.Machine{}, nil
}

func (g *goneDown) Get(_ context.Context, id string) (adapter.Machine, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.reads++
	switch {
	case g.reads == 1:
		return adapter.Machine{ID: id, State: adapter.StatePending}, nil
	case g.reads > 200:
		g.cancel()
	}
	return adapter.Machine{}, &adapter.Error{Code: adapter.Transient, Message: "GET /machines/" + id,
		Err: adapter.MarkUnreachable(errors.New("dial tcp 127.0.0.1:1: connect: connection refused"))}
}

// TestWaitGivesUpOnAnUnreachableEndpoint: with Reads set, a wait whose
// endpoint goes down gives up once it has been unreachable for
// Reads.Unreachable, with the read's own give-up, instead of retrying that
// as a failure until the operation's context ends; without Reads, it
// retries until then.
func TestWaitGivesUpOnAnUnreachableEndpoint(t *testing.T) {
	for _, c := range []struct {
		name   string
		reads  *adapter.ReadPolicy
		giveUp bool
	}{
		{"action", &adapter.ReadPolicy{Backoff: adapter.DefaultBackoff, Unreachable: 30 * time.Second, Quick: adapter.QuickBackoff}, true},
		{"apply", nil, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			g := &goneDown{cancel: cancel}
			p := Path{Clock: instant{}, Reads: c.reads}
			_, err := p.Wait(ctx, adapter.NewCached(g, instant{}, time.Second).Declare(adapter.Capabilities{adapter.CapPower}), "7", adapter.StateRunning)
			gaveUp := err != nil && adapter.Unreachable(err) && strings.Contains(err.Error(), "gave up") && ctx.Err() == nil
			if gaveUp != c.giveUp {
				t.Errorf("the wait gave up on the endpoint: %v, want %v (after %d reads): %v", gaveUp, c.giveUp, g.reads, err)
			}
		})
	}
}
