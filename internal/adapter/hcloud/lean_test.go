package hcloud

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/adaptertest"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// TestConcurrentCreatesCostAtMostTwoRequestsEach: 50 machines created at
// once through adapter.Cached, each then waited for until it runs as the
// instance layer waits (adapter.WaitFor on Cached.Poll), cost the API at
// most two requests each beyond their POSTs: the look-up before the creates
// is one listing they all share, and the waits share one listing per round.
// Actions take three reads to finish, so waits that each read on their own
// would cost three reads a machine.
func TestConcurrentCreatesCostAtMostTwoRequestsEach(t *testing.T) {
	const n = 50
	e, endpoint := startEmulator(t, emu.Options{ActionPolls: 3})
	c := adapter.NewCached(newTestAccount(t, endpoint), adaptertest.InstantClock{}, 0)
	e.ResetStats()

	// All creates are answered before any wait begins, so what the waits
	// cost does not depend on how the creates interleave with them.
	var created, waited sync.WaitGroup
	created.Add(n)
	waited.Add(n)
	for i := range n {
		go func() {
			defer waited.Done()
			name := fmt.Sprintf("lean-%d", i)
			m, err := c.Create(ctxT(t), testCall(name), testRequest(name))
			created.Done()
			if err != nil {
				t.Errorf("create %s: %v", name, err)
				return
			}
			created.Wait()
			err = adapter.WaitFor(ctxT(t), adaptertest.InstantClock{}, adapter.DefaultBackoff, name+" to run", func(ctx context.Context) (bool, error) {
				got, err := c.Poll(ctx, m.ID)
				return got.State == adapter.StateRunning && got.HasAddress(), err
			})
			if err != nil {
				t.Errorf("wait for %s: %v", name, err)
			}
		}()
	}
	created.Wait()
	creates := e.Stats()
	waited.Wait()
	stats := e.Stats()

	posts := stats["POST /servers"]
	total := 0
	for _, k := range stats {
		total += k
	}
	t.Logf("%d creates: %d request(s) beyond the POSTs (%.2f each): %v", n, total-posts, float64(total-posts)/n, stats)
	if posts != n {
		t.Fatalf("%d POSTs for %d creates", posts, n)
	}
	before := 0
	for _, k := range creates {
		before += k
	}
	if before-creates["POST /servers"] != 1 {
		t.Errorf("the creates cost %d request(s) beyond their POSTs before any wait, want the one listing their look-ups share: %v", before-creates["POST /servers"], creates)
	}
	if total-posts > 2*n {
		t.Errorf("%d creates cost %d requests beyond their POSTs, want at most %d: %v", n, total-posts, 2*n, stats)
	}
}

// TestRateBudgetFollowsTheHeaders: the budget the shared waits pace
// themselves by is what the API's last answer reported.
func TestRateBudgetFollowsTheHeaders(t *testing.T) {
	e, endpoint := startEmulator(t, emu.Options{})
	id := e.AddServer(emu.Server{Name: "seeded"})
	a := newTestAccount(t, endpoint)
	if _, _, ok := a.RateBudget(); ok {
		t.Fatal("a budget was reported before any answer")
	}
	e.SetRateLimit(100, time.Hour)
	for range 3 {
		if _, err := a.Get(ctxT(t), strconv.FormatInt(id, 10)); err != nil {
			t.Fatal(err)
		}
	}
	if remaining, limit, ok := a.RateBudget(); !ok || limit != 100 || remaining != 97 {
		t.Errorf("RateBudget = %d of %d (%v), want 97 of 100 after three requests", remaining, limit, ok)
	}
}
