package adapter

import (
	"context"
	"sync"
	"time"
)

// settling learns, per account and process, how long a machine created
// through the account stays unsettled, so that the waits of later creates
// do not join the shared rounds (see Poll) while no machine before them has
// ever been ready. An apply of 50 Hetzner Cloud servers at -parallelism=20
// waits in three waves: the first wave's rounds teach that a server takes at
// least about as long as its create action, and the next waves skip the
// rounds of that time, which saved a third of the apply's listings.
//
// What is learnt is a lower bound only: the time, after its create
// returned, of the last round that still showed a machine unsettled, the
// least over every machine seen to settle. A machine already settled at
// its first round teaches 0, which ends the holding for the process (quick
// backends lose nothing). A later machine that settles faster than every
// earlier one is seen at most that bound late, never missed.
type settling struct {
	mu sync.Mutex
	// created holds this process's creates not yet seen settled, by
	// machine id, with the time each create returned; unsettledAt the start
	// of the last round that listed it unsettled.
	created     map[string]time.Time
	unsettledAt map[string]time.Time
	// least is the bound learnt so far, known once a machine settled.
	least time.Duration
	known bool
}

// made notes a machine that a create of this process returned at now.
func (s *settling) made(id string, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.created == nil {
		s.created, s.unsettledAt = map[string]time.Time{}, map[string]time.Time{}
	}
	s.created[id] = now
}

// hold is how long a wait for machine id should stay out of the rounds
// from now: until the learnt bound has passed since its create returned.
func (s *settling) hold(id string, now time.Time) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	at, ok := s.created[id]
	if !ok || !s.known || s.least <= 0 {
		return 0
	}
	return max(at.Add(s.least).Sub(now), 0)
}

// seen takes what the round that started at start showed of machine id.
func (s *settling) seen(id string, start time.Time, m Machine) {
	s.mu.Lock()
	defer s.mu.Unlock()
	at, ok := s.created[id]
	if !ok {
		return
	}
	if !settled(m) {
		s.unsettledAt[id] = start
		return
	}
	bound := time.Duration(0)
	if u, ok := s.unsettledAt[id]; ok && u.After(at) {
		bound = u.Sub(at)
	}
	if !s.known || bound < s.least {
		s.least, s.known = bound, true
	}
	delete(s.created, id)
	delete(s.unsettledAt, id)
}

// settled is a machine a create's wait stops at: running with an address,
// stopped, or one that is failing or going away, which ends the wait too.
func settled(m Machine) bool {
	switch m.State {
	case StateRunning:
		return m.HasAddress()
	case StatePending, StateUnknown:
		return false
	}
	return true
}

// holdBack keeps a wait for machine id out of the rounds for as long as
// settling says, honouring ctx.
func (c *Cached) holdBack(ctx context.Context, id string) error {
	d := c.settling.hold(id, c.clock.Now())
	if d <= 0 {
		return nil
	}
	select {
	case <-c.clock.After(d):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
