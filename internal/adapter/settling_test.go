package adapter

import (
	"context"
	"strconv"
	"sync"
	"testing"
	"time"
)

// timedAdapter makes machines that run, with an address, takes after
// their create, on clock's time, and lists them as they are then.
type timedAdapter struct {
	*fakeAdapter
	clock *fakeClock
	takes time.Duration

	mu    sync.Mutex
	made  map[string]time.Time
	lists int
}

func (a *timedAdapter) Create(context.Context, Call, CreateRequest) (Machine, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	id := strconv.Itoa(len(a.made) + 1)
	a.made[id] = a.clock.Now()
	return Machine{ID: id, State: StatePending}, nil
}

func (a *timedAdapter) List(context.Context) ([]Machine, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.lists++
	var out []Machine
	for id, at := range a.made {
		m := Machine{ID: id, Managed: true, State: StatePending}
		if !a.clock.Now().Before(at.Add(a.takes)) {
			m.State, m.IPv4 = StateRunning, "192.0.2.1"
		}
		out = append(out, m)
	}
	return out, nil
}

// createAndWait creates one machine and polls it until it runs, returning
// how many listings that cost.
func createAndWait(t *testing.T, c *Cached, a *timedAdapter) int {
	t.Helper()
	ctx := context.Background()
	m, err := c.Create(ctx, Call{IdempotencyKey: "k"}, CreateRequest{})
	if err != nil {
		t.Fatal(err)
	}
	a.mu.Lock()
	before := a.lists
	a.mu.Unlock()
	for range 100 {
		got, err := c.Poll(ctx, m.ID)
		if err != nil {
			t.Fatal(err)
		}
		if got.State == StateRunning {
			a.mu.Lock()
			defer a.mu.Unlock()
			return a.lists - before
		}
	}
	t.Fatalf("machine %s never ran", m.ID)
	return 0
}

// TestPollLearnsHowLongCreatesTake: the first create's wait sees every
// round (one a second: six for a machine that takes 5s); a later create's
// wait stays out of the rounds until the first machine was seen running
// (5s) and a margin, so it costs one round, which sees its machine running.
// A machine that runs at once teaches nothing to hold for.
func TestPollLearnsHowLongCreatesTake(t *testing.T) {
	clock := &fakeClock{now: time.Unix(1e9, 0)}
	a := &timedAdapter{fakeAdapter: &fakeAdapter{machines: map[string]Machine{}}, clock: clock, takes: 5 * time.Second, made: map[string]time.Time{}}
	c := NewCached(a, clock, time.Minute)

	if got := createAndWait(t, c, a); got != 6 {
		t.Errorf("the first wait cost %d listings, want 6 (one a second until the machine ran after 5s)", got)
	}
	started := clock.Now()
	if got := createAndWait(t, c, a); got != 1 {
		t.Errorf("the second wait cost %d listings, want 1 (held out of the rounds until the first machine was seen running)", got)
	}
	if took := clock.Now().Sub(started); took > 5*time.Second+settleMargin {
		t.Errorf("the second machine, running after 5s, was seen after %s, want at its hold's end, %s", took, 5*time.Second+settleMargin)
	}

	quick := &timedAdapter{fakeAdapter: &fakeAdapter{machines: map[string]Machine{}}, clock: clock, made: map[string]time.Time{}}
	c = NewCached(quick, clock, time.Minute)
	for i := range 2 {
		if got := createAndWait(t, c, quick); got != 1 {
			t.Errorf("wait %d for a machine that runs at once cost %d listings, want 1", i+1, got)
		}
	}
	if !c.settling.known || c.settling.least != 0 {
		t.Errorf("after machines that ran at once, waits are held %s (learnt: %v), want 0", c.settling.least, c.settling.known)
	}
}

// TestRoundGathersTheHoldsEndingJustAfter: a round due when the first
// machine of a wave may be ready waits for the holds that end within
// gatherWindow, so the wave's waits share it, and for no hold beyond.
func TestRoundGathersTheHoldsEndingJustAfter(t *testing.T) {
	t0 := time.Unix(1e9, 0)
	var s settling
	s.least, s.known = 5*time.Second, true
	s.made("a", t0)
	s.made("b", t0.Add(50*time.Millisecond))
	s.made("late", t0.Add(time.Second))
	due := s.holdEnd(t0)
	if got := s.gather(due); got != 50*time.Millisecond {
		t.Errorf("the round due at a's hold end waits %s, want 50ms, until b's hold ends (and not late's, a second later)", got)
	}
	if got := s.gather(due.Add(-time.Second)); got != 0 {
		t.Errorf("a round a second before any hold ends waits %s, want 0", got)
	}

	// The round itself waits: a's wait finds its round started when b's
	// hold ended.
	clock := &fakeClock{now: t0}
	a := &timedAdapter{fakeAdapter: &fakeAdapter{machines: map[string]Machine{}}, clock: clock, takes: 5 * time.Second, made: map[string]time.Time{}}
	c := NewCached(a, clock, time.Minute)
	c.settling.least, c.settling.known = 5*time.Second, true
	for _, id := range []string{"1", "2"} {
		if _, err := c.Create(context.Background(), Call{IdempotencyKey: "k" + id}, CreateRequest{}); err != nil {
			t.Fatal(err)
		}
		if id == "1" {
			clock.advance(50 * time.Millisecond)
		}
	}
	want := c.settling.holdEnd(t0.Add(50 * time.Millisecond))
	if _, err := c.Poll(context.Background(), "1"); err != nil {
		t.Fatal(err)
	}
	if c.polls.lastStart.Before(want) {
		t.Errorf("the round started at %s, want at %s, when the second machine's hold ended", c.polls.lastStart.Sub(t0), want.Sub(t0))
	}
}
