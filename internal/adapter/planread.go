package adapter

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// DefaultUnreachable is how long a read made while Terraform plans keeps
// retrying an endpoint it cannot reach at all, unless the resource's
// timeouts say otherwise.
//
// A plan is read-only and is often run by CI on every change: an endpoint
// that refuses connections, does not resolve or fails TLS will not mend
// itself within the minutes a read timeout gives a failing backend, and a
// plan that waits those minutes out, resource after resource, tells the
// user nothing they could not have been told in seconds. Half a minute
// rides out a restart of a proxy or a DNS record caught mid-update.
const DefaultUnreachable = 30 * time.Second

// QuickBackoff paces the retries of an unreachable endpoint: after 1s, 2s,
// 4s, then every 8s, so that DefaultUnreachable holds seven attempts.
var QuickBackoff = Backoff{Initial: time.Second, Max: 8 * time.Second}

// ReadPolicy is how a read made while Terraform plans (a refresh, a data
// source, an account's health check) retries. A backend that answers with a
// failure (5xx) or asks to slow down (429) is retried with Backoff until the
// read's timeout, as Retry does; an endpoint that cannot be reached at all
// (Unreachable) is retried quickly for Unreachable at most. Applies keep
// Retry, which gives an unreachable endpoint the operation's whole timeout:
// a create half done must not be abandoned in seconds.
type ReadPolicy struct {
	Backoff     Backoff
	Unreachable time.Duration
	Quick       Backoff
}

// PlanReads is the policy of reads made while planning, with unreachable
// as the budget for an endpoint that cannot be reached.
func PlanReads(unreachable time.Duration) ReadPolicy {
	return ReadPolicy{Backoff: DefaultBackoff, Unreachable: unreachable, Quick: QuickBackoff}
}

// Decide is the pure retry decision of a read made while planning, after
// attempt number attempt failed with err. down is how long the endpoint has
// been unreachable, as far as anyone in this provider process knows (see
// Cached.PlanRead); it matters only when err is Unreachable. The last wait
// ends when the budget does, so the read's last attempt falls on it.
func (p ReadPolicy) Decide(err error, attempt int, down time.Duration) (retry bool, wait time.Duration) {
	retry, wait = RetryDecision(err, attempt, p.Backoff)
	if !retry || !Unreachable(err) {
		return retry, wait
	}
	if down >= p.Unreachable {
		return false, 0
	}
	return true, min(p.Quick.Delay(attempt), p.Unreachable-down)
}

// PlanRead runs fn, a read made while Terraform plans through this account,
// under p. Whether the account's endpoint can be reached is the account's,
// not one read's: every read through it counts the endpoint's unreachable
// time from the first failure to reach it that any of them met, until
// something gets an answer. Reads that run side by side give up together,
// and a read that starts after one gave up makes one attempt (the endpoint
// may be back) and gives up at once when it meets the same wall, so a plan
// with many resources on a dead endpoint fails in about p.Unreachable, not
// in that times the number of resources.
func (c *Cached) PlanRead(ctx context.Context, p ReadPolicy, what string, fn func(context.Context) error) error {
	// down is how long this read has known the endpoint unreachable,
	// counting its own waits: on a clock whose waits are shortened (the
	// tests' clocks), the wall time between attempts does not tell.
	// inRow counts this read's attempts since the endpoint last answered,
	// which pace the quick retries.
	var down time.Duration
	attempts, inRow := 0, 0
	observed := func(ctx context.Context) error {
		attempts++
		inRow++
		err := fn(ctx)
		if answered(err) {
			c.reach.answered()
			down, inRow = 0, 0
		}
		return err
	}
	return retry(ctx, c.clock, what, observed, func(err error, attempt int) (bool, time.Duration, error) {
		if !Unreachable(err) {
			retry, wait := p.Decide(err, attempt, 0)
			return retry, wait, nil
		}
		down = c.reach.failed(c.clock.Now(), down)
		retry, wait := p.Decide(err, inRow, down)
		if !retry {
			if again, _ := RetryDecision(err, attempt, p.Backoff); again {
				return false, 0, unreachableGaveUp(what, attempts, down, err)
			}
			return false, 0, nil
		}
		down += wait
		return true, wait, nil
	})
}

// answered reports whether an attempt's outcome shows that the endpoint
// was reached: success, or a failure other than one to reach it, one it
// never answered, a cancellation, or a secret that did not resolve (which
// sent nothing).
func answered(err error) bool {
	return err == nil || !(Unreachable(err) || NoAnswer(err) || Canceled(err) || Unresolved(err))
}

// unreachableGaveUp is the error of a read that gave up on an unreachable
// endpoint: what it did, how long the endpoint had been unreachable, the
// attempts this read made, and the last failure, whose code and chain it
// keeps (Unreachable included). Never absence.
func unreachableGaveUp(what string, attempts int, down time.Duration, last error) error {
	return &Error{Code: CodeOf(last), Err: last,
		Message: fmt.Sprintf("%s: gave up, since the endpoint could not be reached for %s (%d attempt(s) by this read); last error: %v",
			what, down.Round(time.Second), attempts, last)}
}

// reach is what one provider process knows of whether an account's endpoint
// can be reached: since when every read that tried has failed to reach it,
// and the longest any of them has known so.
type reach struct {
	mu sync.Mutex
	// out: the last attempt failed to reach the endpoint, and every one
	// since since did.
	out   bool
	since time.Time
	down  time.Duration
}

// failed records a failure to reach the endpoint at now by a read that has
// known the endpoint unreachable for own, and returns how long it has been
// unreachable: since the first failure of the streak by the clock, or the
// longest any read of the streak has known, whichever is longer.
func (r *reach) failed(now time.Time, own time.Duration) time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.out {
		r.out, r.since, r.down = true, now, 0
	}
	r.down = max(r.down, own, now.Sub(r.since))
	return r.down
}

// answered ends the streak: the endpoint was reached.
func (r *reach) answered() {
	r.mu.Lock()
	r.out, r.since, r.down = false, time.Time{}, 0
	r.mu.Unlock()
}
