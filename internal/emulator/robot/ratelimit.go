package robot

import (
	"fmt"
	"maps"
	"net/http"
	"sync"
	"time"
)

// Limit is one route's request budget: at most Max requests in any
// Interval, as Robot documents a limit per route ("200 requests per hour").
type Limit struct {
	Max      int
	Interval time.Duration
}

// DefaultRateLimits are Robot's documented budgets by route, per hour:
// the reads of servers 200, of resets and boot configurations 500, resets
// 50, Wake on LAN 10; the values the documentation leaves out take the
// nearest documented neighbour's.
func DefaultRateLimits() map[string]Limit {
	h := func(n int) Limit { return Limit{Max: n, Interval: time.Hour} }
	return map[string]Limit{
		"GET /server":                               h(200),
		"GET /server/{id}":                          h(200),
		"POST /server/{id}":                         h(200),
		"GET /server/{id}/cancellation":             h(200),
		"POST /server/{id}/cancellation":            h(200),
		"DELETE /server/{id}/cancellation":          h(200),
		"POST /server/{id}/reversal":                h(200),
		"GET /reset":                                h(500),
		"GET /reset/{id}":                           h(500),
		"POST /reset/{id}":                          h(50),
		"GET /wol/{id}":                             h(500),
		"POST /wol/{id}":                            h(10),
		"GET /boot/{id}":                            h(500),
		"GET /boot/{id}/rescue":                     h(500),
		"POST /boot/{id}/rescue":                    h(500),
		"DELETE /boot/{id}/rescue":                  h(500),
		"GET /boot/{id}/rescue/last":                h(500),
		"GET /key":                                  h(500),
		"POST /key":                                 h(200),
		"GET /key/{fingerprint}":                    h(500),
		"POST /key/{fingerprint}":                   h(200),
		"DELETE /key/{fingerprint}":                 h(200),
		"GET /order/server/product":                 h(500),
		"GET /order/server/product/{id}":            h(500),
		"GET /order/server/transaction":             h(500),
		"POST /order/server/transaction":            h(200),
		"GET /order/server/transaction/{id}":        h(500),
		"GET /order/server_market/product":          h(500),
		"GET /order/server_market/product/{id}":     h(500),
		"GET /order/server_market/transaction":      h(500),
		"POST /order/server_market/transaction":     h(200),
		"GET /order/server_market/transaction/{id}": h(500),
	}
}

// limiter keeps, per route, the times of the requests it let through
// within the route's interval: a sliding window, so a budget spent at
// once comes back request by request as the oldest ones age out.
type limiter struct {
	mu     sync.Mutex
	limits map[string]Limit
	seen   map[string][]time.Time
}

func newLimiter(limits map[string]Limit) *limiter {
	copied := make(map[string]Limit, len(limits))
	for k, v := range limits {
		copied[k] = v
	}
	return &limiter{limits: copied, seen: map[string][]time.Time{}}
}

// take spends one request of route's budget, or answers
// RATE_LIMIT_EXCEEDED with the budget, as Robot does (403, max_request,
// interval in seconds).
func (l *limiter) take(route string, now time.Time) *apiError {
	l.mu.Lock()
	defer l.mu.Unlock()
	lim, ok := l.limits[route]
	if !ok || lim.Max <= 0 || lim.Interval <= 0 {
		return nil
	}
	times := l.seen[route]
	cut := 0
	for cut < len(times) && !times[cut].After(now.Add(-lim.Interval)) {
		cut++
	}
	times = times[cut:]
	if len(times) >= lim.Max {
		l.seen[route] = times
		return &apiError{status: http.StatusForbidden, code: codeRateLimitExceeded,
			message:    fmt.Sprintf("rate limit exceeded: %s allows %d requests per %s", route, lim.Max, lim.Interval),
			maxRequest: lim.Max, interval: int(lim.Interval / time.Second)}
	}
	l.seen[route] = append(times, now)
	return nil
}

// set replaces route's budget (Max 0 removes it) and forgets what it
// counted.
func (l *limiter) set(route string, lim Limit) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.seen, route)
	if lim.Max <= 0 {
		delete(l.limits, route)
		return
	}
	l.limits[route] = lim
}

func (l *limiter) snapshot() map[string]Limit {
	l.mu.Lock()
	defer l.mu.Unlock()
	return maps.Clone(l.limits)
}

// SetRateLimit sets route's budget ("GET /server"); a Max of 0 removes it.
func (e *Emulator) SetRateLimit(route string, lim Limit) { e.limits.set(route, lim) }

// RateLimits returns the budgets in force by route.
func (e *Emulator) RateLimits() map[string]Limit { return e.limits.snapshot() }
