package adapter

import (
	"context"
	"sync"
	"time"
)

// RateBudget is offered by adapters whose backend says how much of its
// request budget is left (Hetzner Cloud's RateLimit-Remaining and
// RateLimit-Limit headers); ok is false until an answer has said so.
// Shared waits slow down as the budget runs out (see Pace), rather than
// spending it and then waiting out a rate limit.
type RateBudget interface {
	RateBudget() (remaining, limit int, ok bool)
}

// The spacing of shared reads while waits are pending: PollInterval with
// budget to spare, stretched up to MaxPollInterval as it runs out.
const (
	PollInterval    = time.Second
	MaxPollInterval = 30 * time.Second
)

// Pace is the spacing between two shared reads: base while at least half
// of the budget remains, then stretched in proportion as it runs out (a
// quarter left doubles it, an eighth quadruples it), and ceiling once nothing
// is left. An unknown budget (limit <= 0) is base.
func Pace(base, ceiling time.Duration, remaining, limit int) time.Duration {
	switch {
	case limit <= 0 || 2*remaining >= limit:
		return base
	case remaining <= 0:
		return ceiling
	}
	return min(time.Duration(float64(base)*float64(limit)/float64(2*remaining)), ceiling)
}

// poller runs the rounds of Poll: one listing at a time, each serving every
// wait that joined before it started.
type poller struct {
	mu sync.Mutex
	// next is the round that has not started yet; waits join it.
	next *round
	// last is the round started last, and when; ran says whether any has.
	last      *round
	lastStart time.Time
	ran       bool
	// onJoin, set by tests, runs once a wait has joined a round.
	onJoin func()
}

type round struct {
	done chan struct{}
	// start is when its listing started.
	start    time.Time
	waiters  int
	machines map[string]Machine
	err      error
}

// Poll reads machine id for a wait, as fresh as a direct read: from a
// listing of the account's managed machines that starts after the call.
// Every wait on the account shares that listing, so N machines waited for
// at once cost one listing per round instead of N reads; rounds follow one
// another no closer than Pace, which stretches as the backend's rate budget
// runs out. A machine missing from a complete listing, or a listing that
// failed, is read directly, so absence stays authoritative; a listing the
// backend never answered is an error without a second wait.
func (c *Cached) Poll(ctx context.Context, id string) (Machine, error) {
	if !c.SharedPolls() {
		return c.Adapter.Get(ctx, id)
	}
	if err := c.holdBack(ctx, id); err != nil {
		return Machine{}, err
	}
	r := c.join()
	select {
	case <-r.done:
	case <-ctx.Done():
		c.leave(r)
		return Machine{}, ctx.Err()
	}
	if r.err == nil {
		if m, ok := r.machines[id]; ok {
			c.settling.seen(id, r.start, m)
			return m, nil
		}
	} else if NoAnswer(r.err) {
		return Machine{}, r.err
	}
	return c.Adapter.Get(ctx, id)
}

// SharedPolls says whether Poll shares listing rounds, spaced by the
// contract, rather than reading each machine directly; a wait on shared
// rounds need not space its own checks.
func (c *Cached) SharedPolls() bool {
	_, ok := c.Adapter.(Lister)
	return ok
}

func (c *Cached) join() *round {
	p := &c.polls
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.next == nil {
		p.next = &round{done: make(chan struct{})}
		go c.run(p.next, p.last)
	}
	p.next.waiters++
	if p.onJoin != nil {
		p.onJoin()
	}
	return p.next
}

func (c *Cached) leave(r *round) {
	c.polls.mu.Lock()
	r.waiters--
	c.polls.mu.Unlock()
}

// run starts r once prev is over and the pace allows, unless every wait
// has left it meanwhile. It runs detached from the waits' contexts, so one
// that gives up does not fail the round for the others.
func (c *Cached) run(r, prev *round) {
	defer close(r.done)
	if prev != nil {
		<-prev.done
	}
	p := &c.polls
	p.mu.Lock()
	since, ran := p.lastStart, p.ran
	p.mu.Unlock()
	if ran {
		if d := since.Add(c.pace()).Sub(c.clock.Now()); d > 0 {
			<-c.clock.After(d)
		}
	}
	if d := c.settling.gather(c.clock.Now()); d > 0 {
		<-c.clock.After(d)
	}
	p.mu.Lock()
	p.next, p.last = nil, r
	idle := r.waiters <= 0
	if !idle {
		p.lastStart, p.ran = c.clock.Now(), true
		r.start = p.lastStart
	}
	p.mu.Unlock()
	if idle {
		r.err = context.Canceled
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	ms, err := c.list(ctx)
	if r.err = err; err != nil {
		return
	}
	r.machines = make(map[string]Machine, len(ms))
	for _, m := range ms {
		r.machines[m.ID] = m
	}
	done := make(chan struct{})
	close(done)
	c.indexed(&listing{done: done, at: c.clock.Now(), machines: r.machines})
}

// pace is the spacing of rounds for the adapter's current rate budget.
func (c *Cached) pace() time.Duration {
	if b, ok := c.Adapter.(RateBudget); ok {
		if remaining, limit, ok := b.RateBudget(); ok {
			return Pace(PollInterval, MaxPollInterval, remaining, limit)
		}
	}
	return PollInterval
}
