package adapter

import (
	"context"
	"errors"
	"testing"
	"time"
)

// nonLister is an adapter without List.
type nonLister struct{ fakeAdapter }

func (*nonLister) List() {} // not Lister's signature: hides fakeAdapter.List

// TestCachedFindListsAfresh: a machine that appeared after the shared
// listing was taken, without a write through the cache (a create whose
// answer was lost), is found, and the reads after Find share its listing.
func TestCachedFindListsAfresh(t *testing.T) {
	ctx := context.Background()
	f := &fakeAdapter{machines: map[string]Machine{"1": {ID: "1", Managed: true}}}
	c := NewCached(f, &fakeClock{}, time.Minute)
	if _, err := c.Get(ctx, "1"); err != nil {
		t.Fatal(err)
	}
	f.machines["2"] = Machine{ID: "2", Managed: true, Key: "k"}
	m, ok, err := c.Find(ctx, func(m Machine) bool { return m.Key == "k" })
	if err != nil || !ok || m.ID != "2" {
		t.Fatalf("Find: %+v %v %v; it must not answer from the listing taken before", m, ok, err)
	}
	if _, err := c.Get(ctx, "2"); err != nil || f.lists.Load() != 2 || f.gets.Load() != 0 {
		t.Fatalf("err=%v lists=%d gets=%d, want the read after Find served by its listing (2 listings, 0 gets)", err, f.lists.Load(), f.gets.Load())
	}
	if _, ok, err := c.Find(ctx, func(Machine) bool { return false }); ok || err != nil {
		t.Fatalf("no match: ok=%v err=%v", ok, err)
	}
}

// TestCachedFindFailures: a failed listing is an error, never "not found";
// an adapter that cannot list says so.
func TestCachedFindFailures(t *testing.T) {
	ctx := context.Background()
	boom := Errorf(Transient, "listing failed")
	f := &fakeAdapter{machines: map[string]Machine{}, listErr: boom}
	if _, ok, err := NewCached(f, &fakeClock{}, time.Minute).Find(ctx, func(Machine) bool { return true }); ok || !errors.Is(err, boom) {
		t.Fatalf("failed listing: ok=%v err=%v", ok, err)
	}
	n := &nonLister{fakeAdapter{machines: map[string]Machine{}}}
	if _, ok, err := NewCached(n, &fakeClock{}, time.Minute).Find(ctx, func(Machine) bool { return true }); ok || !Is(err, Unsupported) {
		t.Fatalf("no lister: ok=%v err=%v", ok, err)
	}
}
