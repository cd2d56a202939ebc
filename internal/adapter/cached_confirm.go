package adapter

import "context"

// Confirm confirms this state's claim on machine id: the first refresh of a
// state that holds an unconfirmed claim calls it, and from then on no other
// state adopts the machine (Adoptable). It reads the machine directly (a
// listing may be a moment old) and writes only when the machine still
// carries claim unconfirmed: one Update whose mark is the machine's own,
// confirmed. A machine already confirmed, or carrying another claim (the
// caller's Held says what that means), costs the read alone. It reports
// whether it wrote.
//
// Confirming is best effort for the caller: a refresh must not fail because
// a read-only credential may not write, and an unconfirmed claim only
// leaves the recovery window open a little longer.
func (c *Cached) Confirm(ctx context.Context, id, claim string) (bool, error) {
	m, err := c.Fresh(ctx, id)
	if err != nil {
		return false, err
	}
	if claim == "" || m.Claim != claim || !m.Managed || !m.Unconfirmed {
		return false, nil
	}
	mark := Mark{Key: m.Key, Fingerprint: m.Fingerprint, Claim: m.Claim}
	if _, err := c.Update(ctx, id, UpdateRequest{Mark: &mark, Current: &m}); err != nil {
		return false, err
	}
	return true, nil
}

// ConfirmOnRefresh is what a refresh calls with the machine it read (from a
// listing) and the claim its state keeps, once it knows the state still
// holds the machine: when the machine carries that claim unconfirmed, it
// confirms it (Confirm). A failure (a read-only credential, a backend that
// did not answer) is logged, never returned: the refresh goes on, and the
// next refresh tries again.
func (c *Cached) ConfirmOnRefresh(ctx context.Context, m Machine, claim string) {
	if !m.Unconfirmed || claim == "" || m.Claim != claim {
		return
	}
	c.mu.Lock()
	halted := c.confirmsHalted
	c.mu.Unlock()
	if halted {
		return
	}
	if _, err := c.Confirm(ctx, m.ID, claim); err != nil {
		LoggerFrom(ctx).Warn(ctx, "confirm the claim on machine "+m.ID+" failed; the next refresh tries again", map[string]any{
			"machine_id": m.ID, "error": err.Error()})
		if listingSpeaksForAll(err) {
			// A rate limit (Robot's budgets are per hour), refused
			// credentials or a backend that does not answer fail every
			// other confirmation of this run too: trying each would
			// spend one request per machine on every refresh, and keep
			// the budget spent. The next run tries again.
			c.mu.Lock()
			c.confirmsHalted = true
			c.mu.Unlock()
		}
	}
}
