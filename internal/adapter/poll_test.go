package adapter

import (
	"context"
	"sync"
	"testing"
	"time"
)

// gatedAdapter is fakeAdapter whose listings each announce themselves on
// started and then wait for release, and whose rate budget is fixed.
type gatedAdapter struct {
	*fakeAdapter
	started chan struct{}
	budget  [2]int // remaining, limit; zero limit: none reported
	calls   chan Call
}

func (g *gatedAdapter) List(ctx context.Context) ([]Machine, error) {
	if g.started != nil {
		g.started <- struct{}{}
	}
	return g.fakeAdapter.List(ctx)
}

func (g *gatedAdapter) RateBudget() (int, int, bool) {
	return g.budget[0], g.budget[1], g.budget[1] > 0
}

func (g *gatedAdapter) Create(_ context.Context, call Call, _ CreateRequest) (Machine, error) {
	g.calls <- call
	return Machine{ID: "new"}, nil
}

func (g *gatedAdapter) Update(_ context.Context, id string, _ UpdateRequest) (Machine, error) {
	return Machine{ID: id}, nil
}

// within waits for ch for as long as the test may run: until shortly before
// go test's -timeout ends the binary, so that a hang fails naming what did not
// happen, and never sooner, however busy the machine is.
func within[T any](t *testing.T, what string, ch <-chan T) T {
	t.Helper()
	var expired <-chan time.Time
	if deadline, ok := t.Deadline(); ok {
		left := time.Until(deadline)
		timer := time.NewTimer(left - left/20)
		defer timer.Stop()
		expired = timer.C
	}
	select {
	case v := <-ch:
		return v
	case <-expired:
		t.Fatalf("%s did not happen before the test's deadline", what)
		panic("unreachable")
	}
}

func waitGroup(wg *sync.WaitGroup) <-chan struct{} {
	ch := make(chan struct{})
	go func() { wg.Wait(); close(ch) }()
	return ch
}

// TestPollSharesOneListingPerRound: a wait joins the next round that has
// not started, so nine waits that arrive while a listing runs share the one
// after it, which starts no sooner than the pace allows.
func TestPollSharesOneListingPerRound(t *testing.T) {
	f := &fakeAdapter{machines: map[string]Machine{}, release: make(chan struct{})}
	for _, id := range []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10"} {
		f.machines[id] = Machine{ID: id, Managed: true}
	}
	g := &gatedAdapter{fakeAdapter: f, started: make(chan struct{})}
	clock := &fakeClock{}
	c := NewCached(g, clock, time.Minute)
	var joined sync.WaitGroup
	c.polls.onJoin = joined.Done

	var done sync.WaitGroup
	poll := func(id string) {
		joined.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			if m, err := c.Poll(context.Background(), id); err != nil || m.ID != id {
				t.Errorf("Poll(%s) = %v, %v", id, m, err)
			}
		}()
	}
	poll("1")
	within(t, "the first wait joining a round", waitGroup(&joined))
	within(t, "the first round's listing", g.started) // the next waits join round 2
	for _, id := range []string{"2", "3", "4", "5", "6", "7", "8", "9", "10"} {
		poll(id)
	}
	within(t, "nine waits joining the second round", waitGroup(&joined))
	f.release <- struct{}{}
	within(t, "the second round's listing", g.started)
	f.release <- struct{}{}
	within(t, "every wait's answer", waitGroup(&done))
	if f.lists.Load() != 2 || f.gets.Load() != 0 {
		t.Fatalf("10 waits cost %d listings and %d reads, want 2 and 0", f.lists.Load(), f.gets.Load())
	}
	if len(clock.waits) != 1 || clock.waits[0] != PollInterval {
		t.Errorf("rounds waited %v, want one wait of %s before the second", clock.waits, PollInterval)
	}
}

// TestPollAbsenceIsConfirmed: a machine missing from a complete listing is
// read directly (absent only when that read says so), a failed listing falls
// back to a direct read, and a listing never answered is an error alone.
func TestPollAbsenceIsConfirmed(t *testing.T) {
	f := &fakeAdapter{machines: map[string]Machine{"1": {ID: "1"}}, unlisted: map[string]Machine{"imported": {ID: "imported"}}}
	c := NewCached(f, &fakeClock{}, time.Minute)
	ctx := context.Background()
	if _, err := c.Poll(ctx, "gone"); !IsNotFound(err) || f.gets.Load() != 1 {
		t.Fatalf("absent from the listing: %v after %d reads, want NotFound from one direct read", err, f.gets.Load())
	}
	if m, err := c.Poll(ctx, "imported"); err != nil || m.ID != "imported" || f.gets.Load() != 2 {
		t.Fatalf("unlisted: %v %v", m, err)
	}
	f.listErr = Errorf(Transient, "503")
	if m, err := c.Poll(ctx, "1"); err != nil || m.ID != "1" || f.gets.Load() != 3 {
		t.Fatalf("a failed listing must fall back to a direct read: %v %v", m, err)
	}
	f.listErr = &Error{Code: Transient, Message: "did not answer within 5s", Err: ErrNoAnswer}
	if _, err := c.Poll(ctx, "1"); !NoAnswer(err) || f.gets.Load() != 3 {
		t.Fatalf("a silent listing: %v after %d reads, want the silence and no read", err, f.gets.Load())
	}
	if f.lists.Load() != 4 {
		t.Errorf("%d listings for 4 polls one after another, want 4: a round is never older than its wait", f.lists.Load())
	}
}

func TestPace(t *testing.T) {
	for _, tc := range []struct {
		remaining, limit int
		want             time.Duration
	}{
		{0, 0, time.Second},
		{3600, 3600, time.Second},
		{1800, 3600, time.Second},
		{900, 3600, 2 * time.Second},
		{450, 3600, 4 * time.Second},
		{10, 3600, 30 * time.Second},
		{0, 3600, 30 * time.Second},
	} {
		if got := Pace(time.Second, 30*time.Second, tc.remaining, tc.limit); got != tc.want {
			t.Errorf("Pace(%d of %d) = %s, want %s", tc.remaining, tc.limit, got, tc.want)
		}
	}
}

// TestPollSlowsDownAsTheBudgetRunsOut: the wait between rounds follows the
// adapter's rate budget.
func TestPollSlowsDownAsTheBudgetRunsOut(t *testing.T) {
	f := &fakeAdapter{machines: map[string]Machine{"1": {ID: "1"}}}
	g := &gatedAdapter{fakeAdapter: f, budget: [2]int{450, 3600}}
	clock := &fakeClock{}
	c := NewCached(g, clock, time.Minute)
	for range 2 {
		if _, err := c.Poll(context.Background(), "1"); err != nil {
			t.Fatal(err)
		}
	}
	if want := 4 * time.Second; len(clock.waits) != 1 || clock.waits[0] != want {
		t.Errorf("rounds waited %v with an eighth of the budget left, want %s", clock.waits, want)
	}
}

// TestCreateLooksTheKeyUpInTheSharedListing: creates of different keys share
// one listing, across their own writes, within the TTL; a key found there, a
// key this process wrote (a retried create, a mark) or a failed listing
// leaves the look-up to the adapter.
func TestCreateLooksTheKeyUpInTheSharedListing(t *testing.T) {
	f := &fakeAdapter{machines: map[string]Machine{"1": {ID: "1", Key: "k1", Managed: true}}}
	g := &gatedAdapter{fakeAdapter: f, calls: make(chan Call, 1)}
	clock := &fakeClock{}
	c := NewCached(g, clock, time.Minute)
	ctx := context.Background()
	absent := func(key string) bool {
		t.Helper()
		if _, err := c.Create(ctx, Call{IdempotencyKey: key}, CreateRequest{}); err != nil {
			t.Fatal(err)
		}
		return (<-g.calls).KeyAbsent
	}
	if !absent("k2") || !absent("k3") || f.lists.Load() != 1 {
		t.Fatalf("two creates of unlisted keys: %d listings, want both absent from one", f.lists.Load())
	}
	if absent("k1") {
		t.Error("a listed key was vouched absent")
	}
	if absent("k2") {
		t.Error("a key this process created was vouched absent on the retry")
	}
	mark := Mark{Key: "k5"}
	if _, err := c.Update(ctx, "1", UpdateRequest{Mark: &mark}); err != nil {
		t.Fatal(err)
	}
	if absent("k5") {
		t.Error("a key this process marked a machine with was vouched absent")
	}
	clock.advance(2 * time.Minute)
	if !absent("k6") || f.lists.Load() != 2 {
		t.Errorf("after the TTL: %d listings, want a new one", f.lists.Load())
	}
	clock.advance(2 * time.Minute)
	f.listErr = Errorf(Transient, "503")
	if absent("k7") {
		t.Error("a failed listing vouched a key absent")
	}
}
