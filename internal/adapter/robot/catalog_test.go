package robot

import (
	"context"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/adaptertest"
)

// catalogAccount is an account on the fake whose product listing waits
// for gate when gate is not nil, on a clock the test steps.
func catalogAccount(t *testing.T, f *fake, gate chan struct{}) (*account, *adaptertest.StepClock) {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if gate != nil && r.URL.Path == "/order/server/product" {
			<-gate
		}
		f.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	clock := &adaptertest.StepClock{}
	d := definition(options{poll: adapter.Backoff{Initial: time.Millisecond, Max: time.Millisecond}, requestTimeout: 5 * time.Second})
	norm, err := d.Normalize(map[string]string{"user": "provider://robot_user", "password": "provider://robot_password", "endpoint": srv.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	a, err := d.New(norm, adapter.Env{
		Secrets: adapter.SecretResolver{Provider: map[string]string{"robot_user": testUser, "robot_password": testPassword}},
		Clock:   clock,
	})
	if err != nil {
		t.Fatal(err)
	}
	return a.(*account), clock
}

func TestCatalogIsCached(t *testing.T) {
	f := newFake()
	a, clock := catalogAccount(t, f, nil)
	ctx := context.Background()
	reads := func() int { return f.count("GET /order/server/product") }

	// Offers in two locations, a validation and an impossible query:
	// one read of each listing.
	for _, q := range []adapter.Query{{}, {Location: "hel1"}, {MinVCPU: 1000}} {
		if _, err := a.ListOffers(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Validate(ctx, adapter.CreateRequest{Name: "web", OfferID: "AX42"}); err != nil {
		t.Fatal(err)
	}
	if reads() != 1 || f.count("GET /order/server_market/product") != 1 {
		t.Fatalf("four catalog calls read the products %d times and the market %d times, want once each", reads(), f.count("GET /order/server_market/product"))
	}

	clock.Step(catalogTTL - time.Second)
	if _, err := a.ListOffers(ctx, adapter.Query{}); err != nil || reads() != 1 {
		t.Fatalf("within the TTL: %d reads, %v; want the cache", reads(), err)
	}
	clock.Step(time.Second)
	if _, err := a.ListOffers(ctx, adapter.Query{}); err != nil || reads() != 2 {
		t.Fatalf("after the TTL: %d reads, %v; want one more", reads(), err)
	}

	// A failed read is not kept.
	clock.Step(catalogTTL)
	f.mu.Lock()
	f.failRoute, f.failN, f.failStatus, f.failBody = "GET /order/server/product", 1, 500, `{"error":{"status":500,"code":"INTERNAL_ERROR","message":"x"}}`
	f.mu.Unlock()
	if _, err := a.ListOffers(ctx, adapter.Query{}); !adapter.Is(err, adapter.Transient) {
		t.Fatalf("a failing listing: %v, want Transient", err)
	}
	if got, err := a.ListOffers(ctx, adapter.Query{}); err != nil || len(got) == 0 || reads() != 4 {
		t.Fatalf("after a failed read: %v, %v, %d reads; want a fresh read", got, err, reads())
	}
}

// Callers that ask while a read is under way share it, and one that gives
// up meanwhile returns at once.
func TestCatalogReadIsShared(t *testing.T) {
	f := newFake()
	gate := make(chan struct{})
	a, _ := catalogAccount(t, f, gate)
	first := make(chan error, 1)
	go func() { _, err := a.ListOffers(context.Background(), adapter.Query{}); first <- err }()

	// The first read holds the cache's load: wait until it is in flight.
	for {
		a.catalog.mu.Lock()
		inFlight := a.catalog.cur != nil
		a.catalog.mu.Unlock()
		if inFlight {
			break
		}
		select {
		case err := <-first:
			t.Fatalf("the read returned before its gate opened: %v", err)
		default:
			runtime.Gosched()
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := a.ListOffers(ctx, adapter.Query{}); !adapter.Is(err, adapter.Transient) {
		t.Errorf("a waiter whose context ended: %v, want Transient at once", err)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := a.ListOffers(context.Background(), adapter.Query{}); err != nil {
				t.Error(err)
			}
		}()
	}
	close(gate)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	if n := f.count("GET /order/server/product"); n != 1 {
		t.Errorf("six callers read the products %d times, want once", n)
	}
}
