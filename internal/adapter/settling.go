package adapter

import (
	"context"
	"sync"
	"time"
)

// settling learns, per account and process, how long a machine created
// through the account stays unsettled, so that the waits of later creates
// do not join the shared rounds (see Poll) before a machine like them can
// be ready, and join them together once it can. An apply of 50 Hetzner
// Cloud servers at -parallelism=20 waits in three waves: the first wave's
// rounds teach how long a server takes, and each later wave meets one round
// when its servers should be ready, instead of rounds a second apart, of
// which all but the last show them unsettled and the last comes up to a
// second after they were ready.
//
// What is learnt, for a machine some round showed unsettled, is the time
// after its create returned at which the first round that showed it
// settled started; a machine already settled at its first round teaches 0,
// which ends the holding for the process (quick backends lose nothing). The
// least over every machine seen to settle is kept: a later machine that
// settles faster than every earlier one is seen at most that bound late,
// never missed, and one that takes longer meets the rounds a second apart
// from then on, as the first wave did.
type settling struct {
	mu sync.Mutex
	// created holds this process's creates not yet seen settled, by
	// machine id, with the time each create returned; unsettled those of
	// them a round has shown unsettled.
	created   map[string]time.Time
	unsettled map[string]bool
	// least is the bound learnt so far, known once a machine settled.
	least time.Duration
	known bool
}

// settleMargin is added to a learnt bound, so that a machine whose create
// answered a few milliseconds sooner than the one that taught the bound,
// and which is therefore that much less far along, is still settled at its
// first round.
const settleMargin = PollInterval / 10

// gatherWindow is how long a round waits for the holds that end just after
// it was due: the creates of one wave return within a fraction of a second
// of one another, and a round that starts at the first hold's end would
// leave the others to the round a PollInterval later.
const gatherWindow = PollInterval / 4

// made notes a machine that a create of this process returned at now.
func (s *settling) made(id string, now time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.created == nil {
		s.created, s.unsettled = map[string]time.Time{}, map[string]bool{}
	}
	s.created[id] = now
}

// holdEnd is when a wait for a machine created at at may join the rounds.
func (s *settling) holdEnd(at time.Time) time.Time {
	return at.Add(s.least + settleMargin)
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
	return max(s.holdEnd(at).Sub(now), 0)
}

// gather is how long a round due at now should wait for the holds that end
// within gatherWindow of now, so that their waits join it: until the last
// of them has ended, or 0 when none ends in the window.
func (s *settling) gather(now time.Time) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.known || s.least <= 0 {
		return 0
	}
	var last time.Duration
	for _, at := range s.created {
		if d := s.holdEnd(at).Sub(now); d > 0 && d <= gatherWindow {
			last = max(last, d)
		}
	}
	return last
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
		s.unsettled[id] = true
		return
	}
	bound := time.Duration(0)
	if s.unsettled[id] && start.After(at) {
		bound = start.Sub(at)
	}
	if !s.known || bound < s.least {
		s.least, s.known = bound, true
	}
	delete(s.created, id)
	delete(s.unsettled, id)
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
