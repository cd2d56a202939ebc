package robot

import (
	"context"
	"sync"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// catalogTTL is how long the offers read from Robot answer the account's
// later calls. Every plan validates each instance's offer and every
// compute_offers read lists them, so without a cache a run of N resources
// reads both listings N times (two of the product routes' requests per
// hour each time). Standard products and prices change between releases,
// the server market every few minutes as auctions sell and fall in price:
// a minute spans one run and is short enough for the market, and an order
// drops the cache at once, since it takes a market server off the list.
const catalogTTL = time.Minute

// catalog is one account's cached offers, loaded by one caller at a time
// and shared with those who ask meanwhile. Each waiter selects on its own
// context, so a caller that gives up returns at once; a failed load is not
// kept, and a load that failed only because its own caller gave up is run
// again by the next waiter instead of failing everyone.
type catalog struct {
	mu  sync.Mutex
	cur *catalogLoad
}

type catalogLoad struct {
	done   chan struct{}
	offers []adapter.Offer
	err    error
	// loaded is when the load ended; zero while it runs. Under catalog.mu.
	loaded time.Time
}

// offers returns every offer of the account, in every location, from the
// cache while it is fresh.
func (a *account) offers(ctx context.Context) ([]adapter.Offer, error) {
	for {
		a.catalog.mu.Lock()
		l := a.catalog.cur
		if l != nil && !l.loaded.IsZero() && a.clock.Now().Sub(l.loaded) >= catalogTTL {
			l = nil
		}
		if l == nil {
			l = &catalogLoad{done: make(chan struct{})}
			a.catalog.cur = l
			a.catalog.mu.Unlock()
			offers, err := a.loadOffers(ctx)
			a.catalog.mu.Lock()
			l.offers, l.err, l.loaded = offers, err, a.clock.Now()
			if err != nil && a.catalog.cur == l {
				a.catalog.cur = nil
			}
			a.catalog.mu.Unlock()
			close(l.done)
			return offers, err
		}
		a.catalog.mu.Unlock()
		select {
		case <-ctx.Done():
			return nil, fail("list Robot's offers", ctx.Err())
		case <-l.done:
		}
		if l.err == nil || !adapter.Canceled(l.err) {
			return l.offers, l.err
		}
	}
}

// forgetOffers drops the cache: the next call reads Robot again.
func (a *account) forgetOffers() {
	a.catalog.mu.Lock()
	a.catalog.cur = nil
	a.catalog.mu.Unlock()
}
