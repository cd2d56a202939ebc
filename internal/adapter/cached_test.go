package adapter

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeAdapter counts calls; List signals listed, when set, and blocks until
// release is closed, when set.
type fakeAdapter struct {
	machines map[string]Machine
	unlisted map[string]Machine
	listErr  error
	listed   chan struct{}
	release  chan struct{}
	lists    atomic.Int32
	gets     atomic.Int32
	offers   atomic.Int32
}

func (f *fakeAdapter) Kind() string { return "fake" }
func (f *fakeAdapter) ListOffers(context.Context, Query) ([]Offer, error) {
	f.offers.Add(1)
	return []Offer{{ID: "small"}}, nil
}
func (f *fakeAdapter) Create(context.Context, Call, CreateRequest) (Machine, error) {
	return Machine{ID: "new"}, nil
}
func (f *fakeAdapter) Get(_ context.Context, id string) (Machine, error) {
	f.gets.Add(1)
	if m, ok := f.machines[id]; ok {
		return m, nil
	}
	if m, ok := f.unlisted[id]; ok {
		return m, nil
	}
	return Machine{}, Errorf(NotFound, "no machine %s", id)
}
func (f *fakeAdapter) Delete(context.Context, string) error { return nil }
func (f *fakeAdapter) List(context.Context) ([]Machine, error) {
	f.lists.Add(1)
	if f.listed != nil {
		f.listed <- struct{}{}
	}
	if f.release != nil {
		<-f.release
	}
	if f.listErr != nil {
		return nil, f.listErr
	}
	var out []Machine
	for _, m := range f.machines {
		out = append(out, m)
	}
	return out, nil
}

// staleClock moves past any TTL between two readings, so a listing is stale
// the moment it is finished: only readers that joined it while it was in
// flight can share it, and caching cannot hide a missing single flight.
type staleClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *staleClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(time.Hour)
	return c.now
}

func (c *staleClock) After(time.Duration) <-chan time.Time { return make(chan time.Time) }

// waitingCtx reports when a reader selects on it: Cached picks the listing
// it waits for before that, so a reader that has called Done is one that
// joined the listing in flight.
type waitingCtx struct {
	context.Context
	once    sync.Once
	waiting chan<- struct{}
}

func (c *waitingCtx) Done() <-chan struct{} {
	c.once.Do(func() { c.waiting <- struct{}{} })
	return c.Context.Done()
}

// TestCachedSharesOneListing: readers that come while a listing is in
// flight wait for it instead of listing again (single flight). The listing
// is held until every reader waits on it, and the clock makes it stale as
// soon as it ends, so a reader that listed on its own, or came late and
// found no listing to share, shows as a second listing.
func TestCachedSharesOneListing(t *testing.T) {
	const readers = 10
	f := &fakeAdapter{machines: map[string]Machine{}, listed: make(chan struct{}, readers+1), release: make(chan struct{})}
	for i := range readers {
		id := strconv.Itoa(i + 1)
		f.machines[id] = Machine{ID: id, Managed: true}
	}
	released := false
	release := func() {
		if !released {
			released = true
			close(f.release)
		}
	}
	defer release()
	c := NewCached(f, &staleClock{}, time.Minute)
	waiting := make(chan struct{}, readers)
	var wg sync.WaitGroup
	for id := range f.machines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := &waitingCtx{Context: context.Background(), waiting: waiting}
			if m, err := c.Get(ctx, id); err != nil || m.ID != id {
				t.Errorf("%s: %v %v", id, m, err)
			}
		}()
	}
	for joined, lists := 0, 0; joined < readers; {
		select {
		case <-waiting:
			joined++
		case <-f.listed:
			if lists++; lists > 1 {
				t.Fatalf("a second listing started while the first was in flight, with %d of %d readers waiting", joined, readers)
			}
		}
	}
	release()
	wg.Wait()
	if f.lists.Load() != 1 || f.gets.Load() != 0 {
		t.Fatalf("%d concurrent reads cost %d listings and %d gets, want 1 and 0", readers, f.lists.Load(), f.gets.Load())
	}
}

// TestCachedReusesAListingWithinTTL: a read after the listing ended, inside
// the TTL, reuses it (caching), and one after the TTL lists again.
// TestCachedListingHoldsUntilAWrite: a refresh's listing is not dropped
// by age, only by a write through the account, so a plan that outlasts the
// TTL still lists once (see Cached).
func TestCachedListingHoldsUntilAWrite(t *testing.T) {
	f := &fakeAdapter{machines: map[string]Machine{"1": {ID: "1"}, "2": {ID: "2"}}}
	clock := &fakeClock{}
	c := NewCached(f, clock, time.Minute)
	ctx := context.Background()
	for _, step := range []struct {
		advance time.Duration
		id      string
		lists   int32
		write   bool
	}{{0, "1", 1, false}, {59 * time.Second, "2", 1, false}, {2 * time.Second, "1", 1, false}, {time.Hour, "2", 1, false},
		{0, "1", 2, true}, {0, "2", 2, false}, {time.Hour, "1", 2, false}} {
		clock.advance(step.advance)
		if step.write {
			_, _ = c.Create(ctx, Call{}, CreateRequest{})
		}
		if m, err := c.Get(ctx, step.id); err != nil || m.ID != step.id {
			t.Fatalf("Get(%s): %v %v", step.id, m, err)
		}
		if got := f.lists.Load(); got != step.lists {
			t.Fatalf("after %s more, reading %s: %d listings, want %d", step.advance, step.id, got, step.lists)
		}
	}
	if f.gets.Load() != 0 {
		t.Errorf("listed machines were read directly %d times", f.gets.Load())
	}
}

func TestCachedConfirmsAbsence(t *testing.T) {
	f := &fakeAdapter{machines: map[string]Machine{"1": {ID: "1"}}, unlisted: map[string]Machine{"imported": {ID: "imported"}}}
	clock := &fakeClock{}
	c := NewCached(f, clock, time.Minute)
	ctx := context.Background()
	if _, err := c.Get(ctx, "gone"); !IsNotFound(err) || f.gets.Load() != 1 {
		t.Fatalf("absence must be confirmed by one direct read: err=%v gets=%d", err, f.gets.Load())
	}
	if m, err := c.Get(ctx, "imported"); err != nil || m.ID != "imported" {
		t.Fatalf("an unlisted machine is read directly: %v %v", m, err)
	}
	_, _ = c.Get(ctx, "1")
	if f.lists.Load() != 1 {
		t.Fatalf("listings %d, want 1 within the window", f.lists.Load())
	}
	_, _ = c.Create(ctx, Call{}, CreateRequest{})
	_, _ = c.Get(ctx, "1")
	if f.lists.Load() != 2 {
		t.Fatalf("listings %d, want a new one after a write", f.lists.Load())
	}
}

func TestCachedListingFailureIsNeverAbsence(t *testing.T) {
	f := &fakeAdapter{machines: map[string]Machine{"1": {ID: "1"}}, listErr: Errorf(Transient, "503")}
	c := NewCached(f, &fakeClock{}, time.Minute)
	m, err := c.Get(context.Background(), "1")
	if err != nil || m.ID != "1" || f.gets.Load() != 1 {
		t.Fatalf("a failed listing must fall back to a direct read: %v %v", m, err)
	}
	_, _ = c.Get(context.Background(), "1")
	if f.lists.Load() != 2 {
		t.Fatalf("a failed listing must not be cached: %d listings", f.lists.Load())
	}
}

// TestCachedSilentListingIsNotAskedAgain: a listing the backend never
// answered fails the read with that silence, without a direct read that
// would wait it out again, and without reading as absence.
func TestCachedSilentListingIsNotAskedAgain(t *testing.T) {
	silent := &Error{Code: Transient, Message: "did not answer within 5s", Err: ErrNoAnswer}
	f := &fakeAdapter{machines: map[string]Machine{"1": {ID: "1"}}, listErr: silent}
	c := NewCached(f, &fakeClock{}, time.Minute)
	_, err := c.Get(context.Background(), "1")
	if !NoAnswer(err) || IsNotFound(err) || f.gets.Load() != 0 {
		t.Fatalf("got %v after %d direct reads, want the listing's silence and none", err, f.gets.Load())
	}
}

// TestCachedLimitedListingIsNotFannedOut: a listing refused for the rate
// limit or the credentials fails each read with that error, never absence,
// and without one direct read per machine against a backend already
// refusing requests.
func TestCachedLimitedListingIsNotFannedOut(t *testing.T) {
	for name, listErr := range map[string]error{
		"rate limited":  Errorf(RateLimited, "429"),
		"access denied": Errorf(AccessDenied, "401"),
	} {
		t.Run(name, func(t *testing.T) {
			f := &fakeAdapter{machines: map[string]Machine{"1": {ID: "1"}, "2": {ID: "2"}}, listErr: listErr}
			c := NewCached(f, &fakeClock{}, time.Minute)
			for _, id := range []string{"1", "2"} {
				_, err := c.Get(context.Background(), id)
				if CodeOf(err) != CodeOf(listErr) || IsNotFound(err) {
					t.Fatalf("Get(%s) = %v, want the listing's %v", id, err, CodeOf(listErr))
				}
			}
			if f.gets.Load() != 0 {
				t.Fatalf("%d direct reads after a %s listing, want none", f.gets.Load(), name)
			}
		})
	}
}

func TestCachedOffersOncePerQuery(t *testing.T) {
	f := &fakeAdapter{}
	c := NewCached(f, nil, 0)
	for range 3 {
		_, _ = c.ListOffers(context.Background(), Query{MinVCPU: 2})
	}
	_, _ = c.ListOffers(context.Background(), Query{MinVCPU: 4})
	if f.offers.Load() != 2 {
		t.Fatalf("offer calls %d, want 2", f.offers.Load())
	}
	if err := c.Power(context.Background(), "1", PowerOff); !Is(err, Unsupported) {
		t.Fatalf("power on an adapter without it: %v", err)
	}
}
