package faults

import (
	"math"
	"strconv"
	"time"
)

// budget is a token bucket shaped like the Hetzner Cloud limit: limit
// requests per window, refilled gradually (3600/hour grows by one a second)
// rather than all at once when the window ends.
type budget struct {
	limit     int
	window    time.Duration
	remaining float64
	last      time.Time
}

// SetRateLimit gives the API a budget of limit requests per window; every
// response then carries RateLimit-Limit, RateLimit-Remaining and
// RateLimit-Reset, and a request with no budget left is answered 429.
// A limit of 0 or less removes the budget.
func (m *Middleware) SetRateLimit(limit int, window time.Duration) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if limit <= 0 || window <= 0 {
		m.budget = nil
		return
	}
	m.budget = &budget{limit: limit, window: window, remaining: float64(limit), last: m.cfg.Now()}
}

// takeBudgetLocked spends one request and returns whether the request is
// over the limit, with the headers to send either way.
func (m *Middleware) takeBudgetLocked(now time.Time) (limited bool, headers map[string]string) {
	b := m.budget
	if b == nil {
		return false, nil
	}
	perSecond := float64(b.limit) / b.window.Seconds()
	if elapsed := now.Sub(b.last).Seconds(); elapsed > 0 {
		b.remaining = math.Min(float64(b.limit), b.remaining+elapsed*perSecond)
	}
	b.last = now
	if b.remaining >= 1 {
		b.remaining--
	} else {
		limited = true
	}
	// Reset is when the bucket is full again, as the Hetzner docs define it.
	untilFull := time.Duration((float64(b.limit) - b.remaining) / perSecond * float64(time.Second))
	reset := now.Add(untilFull)
	if reset.Nanosecond() > 0 {
		reset = reset.Truncate(time.Second).Add(time.Second)
	}
	return limited, map[string]string{
		"RateLimit-Limit":     strconv.Itoa(b.limit),
		"RateLimit-Remaining": strconv.Itoa(int(math.Floor(b.remaining))),
		"RateLimit-Reset":     strconv.FormatInt(reset.Unix(), 10),
	}
}
