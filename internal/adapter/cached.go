package adapter

import (
	"context"
	"slices"
	"sync"
	"time"
)

// Cached wraps one account's adapter for the life of a provider process (one
// terraform run). Reads of many instances share one single-flight listing of
// the account's managed machines, dropped on any write through the account,
// so a refresh of N instances costs one listing instead of N reads. Offers
// are cached per query for the whole run.
//
// A refresh's listing holds until a write goes through the account, however
// long the command takes: Terraform reads each resource once per command, so
// a resource refreshed from a listing a minute old sees the account as the
// resources refreshed a minute earlier did, and a plan, which writes
// nothing, lists once even when it outlasts TTL (1,000 servers at 50 a page
// behind a slow API do). Only the look-up before a create (keyAbsent) holds
// a listing to TTL: another run may create under the same key meanwhile.
//
// A machine missing from a complete listing is confirmed with one direct Get
// before it is reported absent: the listing shows only managed machines, and
// a machine may have appeared since it was taken. A failed listing is also
// followed by a direct Get, unless the backend did not answer it at all.
type Cached struct {
	Adapter
	clock Clock
	ttl   time.Duration
	// caps are what the account's definition declares; see Declare.
	caps Capabilities

	mu      sync.Mutex
	listing *listing
	offers  map[Query][]Offer
	// adopted maps machines Create adopted in this process to the claims
	// they carried before; see AdoptedHere.
	adopted map[string]string
	// index is the newest complete listing, kept across writes for the
	// look-up before a create (see keyAbsent); written holds every key this
	// process has created or marked a machine with, which index cannot
	// vouch for.
	index   *listing
	written map[string]bool
	// polls shares the reads of waits; see Poll. settling learns how
	// long new machines take, so later waits skip rounds; see settling.
	polls    poller
	settling settling
	// reach is whether the endpoint can be reached; see PlanRead.
	reach reach
	// confirmsHalted: a confirmation failed in a way that fails every
	// other one of this run; see ConfirmOnRefresh.
	confirmsHalted bool
}

type listing struct {
	done     chan struct{}
	at       time.Time
	machines map[string]Machine
	err      error
}

// NewCached wraps a. ttl bounds the age of the listing a create's look-up
// trusts; 0 uses 30 seconds.
func NewCached(a Adapter, clock Clock, ttl time.Duration) *Cached {
	if ttl == 0 {
		ttl = 30 * time.Second
	}
	if clock == nil {
		clock = RealClock{}
	}
	return &Cached{Adapter: a, clock: clock, ttl: ttl, offers: map[Query][]Offer{}, adopted: map[string]string{}, written: map[string]bool{}}
}

// Declare sets the capabilities c offers, those its account's definition
// declares (Accounts.Open passes them), and returns c. Without it c offers
// no optional ability: the adapter value declares nothing of its own.
func (c *Cached) Declare(caps Capabilities) *Cached {
	c.caps = slices.Clone(caps)
	return c
}

// Capabilities are what the account's definition declares (Declare).
func (c *Cached) Capabilities() Capabilities { return slices.Clone(c.caps) }

// Get reads through the shared listing when the adapter can list.
func (c *Cached) Get(ctx context.Context, id string) (Machine, error) {
	if _, ok := c.Adapter.(Lister); !ok {
		return c.Adapter.Get(ctx, id)
	}
	l, err := c.current(ctx, 0)
	if err == nil && l.err == nil {
		if m, ok := l.machines[id]; ok {
			return m, nil
		}
	}
	if err == nil && listingSpeaksForAll(l.err) {
		// What failed the listing fails a direct read as well: a
		// backend that could not be reached or did not answer at all, asks every client to slow
		// down, or refuses the credentials. Falling back to one read per
		// machine would multiply the requests against a backend already
		// limiting them; the caller's retry waits and lists again. An
		// error, never absence.
		return Machine{}, l.err
	}
	// Not listed, or the listing failed: a failed listing is never absence,
	// so ask for the one machine directly.
	return c.Adapter.Get(ctx, id)
}

// listingSpeaksForAll reports whether a failed listing's error would fail
// any other request of the account too.
func listingSpeaksForAll(err error) bool {
	switch {
	case err == nil:
		return false
	case NoAnswer(err), Unreachable(err):
		return true
	}
	switch CodeOf(err) {
	case RateLimited, AccessDenied:
		return true
	}
	return false
}

// Fresh reads one machine directly, bypassing the listing: the read an
// update starts from, and the wait for a deleted machine to be gone, use it;
// waits for a machine to run share theirs through Poll.
func (c *Cached) Fresh(ctx context.Context, id string) (Machine, error) {
	return c.Adapter.Get(ctx, id)
}

// current is the shared listing: the one in flight, or the last complete one
// when maxAge is 0 or it is at most maxAge old; otherwise a new one. A failed
// listing is never reused.
func (c *Cached) current(ctx context.Context, maxAge time.Duration) (*listing, error) {
	c.mu.Lock()
	l := c.listing
	if l == nil || (isClosed(l.done) && (l.err != nil || (maxAge > 0 && c.clock.Now().Sub(l.at) > maxAge))) {
		l = &listing{done: make(chan struct{})}
		c.listing = l
		c.mu.Unlock()
		go c.fill(context.WithoutCancel(ctx), l)
	} else {
		c.mu.Unlock()
	}
	select {
	case <-l.done:
		return l, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// list is the wrapped adapter's listing. Only a Cached whose adapter is a
// Lister shares listings (Get and Poll check), so the error is for a
// caller that skipped that check.
func (c *Cached) list(ctx context.Context) ([]Machine, error) {
	l, ok := c.Adapter.(Lister)
	if !ok {
		return nil, Errorf(Unsupported, "%T lists no machines", c.Adapter)
	}
	return l.List(ctx)
}

// fill runs detached from any one caller's cancellation, so that a caller
// that gives up does not fail the listing for the others waiting on it. It
// keeps the first caller's values: the logger Terraform put there, so the
// listing's requests are logged like any other.
func (c *Cached) fill(detached context.Context, l *listing) {
	defer close(l.done)
	ctx, cancel := context.WithTimeout(detached, 2*time.Minute)
	defer cancel()
	ms, err := c.list(ctx)
	l.at, l.err = c.clock.Now(), err
	if err == nil {
		l.machines = make(map[string]Machine, len(ms))
		for _, m := range ms {
			l.machines[m.ID] = m
		}
		c.indexed(l)
	}
}

// indexed keeps l, a complete listing, for create look-ups when it is the
// newest.
func (c *Cached) indexed(l *listing) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.index == nil || !l.at.Before(c.index.at) {
		c.index = l
	}
}

// keyAbsent reports whether a complete listing of the account's managed
// machines, within the TTL, shows that no machine carries key, so that the
// create may skip its own look-up. Concurrent creates share that listing
// and the ones that come later reuse it: a create of another key cannot
// make this one present, and a key this process has written is never
// vouched for. A machine with the key made by anyone else meanwhile is the
// adapter's to catch, by the look-up after a failed create.
func (c *Cached) keyAbsent(ctx context.Context, key string) bool {
	if _, ok := c.Adapter.(Lister); !ok || key == "" {
		return false
	}
	c.mu.Lock()
	written, idx := c.written[key], c.index
	if idx != nil && c.clock.Now().Sub(idx.at) > c.ttl {
		idx = nil
	}
	c.mu.Unlock()
	if written {
		return false
	}
	if idx == nil {
		l, err := c.current(ctx, c.ttl)
		if err != nil || l.err != nil {
			// The adapter looks for itself.
			return false
		}
		idx = l
	}
	for _, m := range idx.machines {
		if m.Key == key {
			return false
		}
	}
	return true
}

// wrote records that this process writes key onto a machine.
func (c *Cached) wrote(key string) {
	c.mu.Lock()
	c.written[key] = true
	c.mu.Unlock()
}

func isClosed(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

// Invalidate drops the listing; every write calls it.
func (c *Cached) Invalidate() {
	c.mu.Lock()
	c.listing = nil
	c.mu.Unlock()
}

// ListOffers answers each distinct query once per run.
func (c *Cached) ListOffers(ctx context.Context, q Query) ([]Offer, error) {
	c.mu.Lock()
	offers, ok := c.offers[q]
	c.mu.Unlock()
	if ok {
		return offers, nil
	}
	offers, err := c.Adapter.ListOffers(ctx, q)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	c.offers[q] = offers
	c.mu.Unlock()
	return offers, nil
}

// Create looks the key up in the shared listing (see keyAbsent),
// invalidates the listing after the create, and remembers what it adopted.
func (c *Cached) Create(ctx context.Context, call Call, req CreateRequest) (Machine, error) {
	call.KeyAbsent = c.keyAbsent(ctx, call.IdempotencyKey)
	c.wrote(call.IdempotencyKey)
	defer c.Invalidate()
	m, err := c.Adapter.Create(ctx, call, req)
	if err == nil && m.Adopted {
		c.mu.Lock()
		c.adopted[m.ID] = m.PriorClaim
		c.mu.Unlock()
	}
	if err == nil && !m.Adopted && m.ID != "" {
		c.settling.made(m.ID, c.clock.Now())
	}
	return m, err
}

// AdoptedHere reports whether a create through this process adopted machine
// id, and the claim the machine carried before. A provider process serves
// one Terraform command, so a state object whose claim it is was replaced by
// an object of the same run (see NewClaim).
func (c *Cached) AdoptedHere(id string) (priorClaim string, ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	priorClaim, ok = c.adopted[id]
	return priorClaim, ok
}

// Delete invalidates the listing.
func (c *Cached) Delete(ctx context.Context, id string) error {
	defer c.Invalidate()
	return c.Adapter.Delete(ctx, id)
}

// Power forwards to the adapter's Powerer, or answers Unsupported when the
// adapter does not offer the action.
func (c *Cached) Power(ctx context.Context, id string, action PowerAction) error {
	p, ok := c.Adapter.(Powerer)
	if !ok {
		return Errorf(Unsupported, "the %s adapter cannot switch power", c.Kind())
	}
	if !c.Capabilities().Offers(action) {
		return Errorf(Unsupported, "the %s adapter cannot %s a machine (it offers %s)", c.Kind(), action.Verb(), c.Capabilities())
	}
	defer c.Invalidate()
	return p.Power(ctx, id, action)
}

// Update forwards to the adapter's Updater, or answers Unsupported.
func (c *Cached) Update(ctx context.Context, id string, req UpdateRequest) (Machine, error) {
	u, ok := c.Adapter.(Updater)
	if !ok {
		return Machine{}, Errorf(Unsupported, "the %s adapter cannot change name or labels in place", c.Kind())
	}
	if req.Mark != nil {
		c.wrote(req.Mark.Key)
	}
	defer c.Invalidate()
	return u.Update(ctx, id, req)
}

// Check forwards to the adapter's Checker; without one, listing offers is
// the cheapest proof that the account answers.
func (c *Cached) Check(ctx context.Context) error {
	if ch, ok := c.Adapter.(Checker); ok {
		return ch.Check(ctx)
	}
	_, err := c.Adapter.ListOffers(ctx, Query{})
	return err
}

// Validate forwards to the adapter's Validator; without one, nothing is
// checked before create.
func (c *Cached) Validate(ctx context.Context, req CreateRequest) error {
	if v, ok := c.Adapter.(Validator); ok {
		return v.Validate(ctx, req)
	}
	return nil
}
