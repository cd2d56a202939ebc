package adapter

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeAdapter counts calls; List blocks until release is closed when set.
type fakeAdapter struct {
	machines map[string]Machine
	unlisted map[string]Machine
	listErr  error
	release  chan struct{}
	lists    atomic.Int32
	gets     atomic.Int32
	offers   atomic.Int32
}

func (f *fakeAdapter) Kind() string               { return "fake" }
func (f *fakeAdapter) Capabilities() Capabilities { return Capabilities{CapList} }
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

func TestCachedSharesOneListing(t *testing.T) {
	f := &fakeAdapter{machines: map[string]Machine{}, release: make(chan struct{})}
	for _, id := range []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10"} {
		f.machines[id] = Machine{ID: id, Managed: true}
	}
	c := NewCached(f, &fakeClock{}, time.Minute)
	var wg sync.WaitGroup
	for id := range f.machines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if m, err := c.Get(context.Background(), id); err != nil || m.ID != id {
				t.Errorf("%s: %v %v", id, m, err)
			}
		}()
	}
	time.Sleep(10 * time.Millisecond) // let the readers queue behind one listing
	close(f.release)
	wg.Wait()
	if f.lists.Load() != 1 || f.gets.Load() != 0 {
		t.Fatalf("10 reads cost %d listings and %d gets, want 1 and 0", f.lists.Load(), f.gets.Load())
	}
}

func TestCachedConfirmsAbsenceAndExpires(t *testing.T) {
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
	c.Get(ctx, "1")
	if f.lists.Load() != 1 {
		t.Fatalf("listings %d, want 1 within the window", f.lists.Load())
	}
	clock.advance(2 * time.Minute)
	c.Get(ctx, "1")
	if f.lists.Load() != 2 {
		t.Fatalf("listings %d, want a new one after the window", f.lists.Load())
	}
	c.Create(ctx, Call{}, CreateRequest{})
	c.Get(ctx, "1")
	if f.lists.Load() != 3 {
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
	c.Get(context.Background(), "1")
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

func TestCachedOffersOncePerQuery(t *testing.T) {
	f := &fakeAdapter{}
	c := NewCached(f, nil, 0)
	for range 3 {
		c.ListOffers(context.Background(), Query{MinVCPU: 2})
	}
	c.ListOffers(context.Background(), Query{MinVCPU: 4})
	if f.offers.Load() != 2 {
		t.Fatalf("offer calls %d, want 2", f.offers.Load())
	}
	if err := c.Power(context.Background(), "1", PowerOff); !Is(err, Unsupported) {
		t.Fatalf("power on an adapter without it: %v", err)
	}
}
