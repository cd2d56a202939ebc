package adapter

import (
	"context"
	"fmt"
	"time"
)

// Backoff is the retry schedule: Initial for the first Steady attempts,
// then doubled per attempt up to Max.
type Backoff struct {
	Initial time.Duration
	Max     time.Duration
	// Steady is how many waits stay at Initial before the doubling starts.
	// A wait for what usually ends within Steady × Initial then sees the
	// end within Initial of it; doubling from the start sees an end at 5s
	// only at 7s (checks at 0, 1, 3, 7), and the lateness adds up over
	// the waves of an apply and over clones queued one after another.
	Steady int
}

// DefaultBackoff suits API calls: 1s, 2s, 4s, ... capped at 30s.
var DefaultBackoff = Backoff{Initial: time.Second, Max: 30 * time.Second}

// Delay is the wait before retry number attempt (1-based).
func (b Backoff) Delay(attempt int) time.Duration {
	d := b.Initial
	for i := 1 + b.Steady; i < attempt && d < b.Max; i++ {
		d *= 2
	}
	return min(d, b.Max)
}

// RetryDecision is the pure retry policy: whether err is worth another
// attempt, and how long to wait first. Only Transient and RateLimited are
// retried; a RateLimited wait honours the backend's retry-after.
//
// A request the backend never answered (NoAnswer) is not retried here: the
// adapter has already sent it twice, each time waiting out the request's
// bound, and every further attempt would cost another bound or two with
// nothing learned. Retrying it until the operation's timeout would turn a
// silent endpoint into a plan that hangs for the whole read timeout; failing
// now tells the user within seconds which endpoint is silent. Answers that
// say the backend failed or is busy (5xx, 429) are retried until the timeout.
func RetryDecision(err error, attempt int, b Backoff) (retry bool, wait time.Duration) {
	if err == nil || Canceled(err) || NoAnswer(err) {
		return false, 0
	}
	switch CodeOf(err) {
	case Transient:
		return true, b.Delay(attempt)
	case RateLimited:
		return true, max(b.Delay(attempt), RetryAfterOf(err))
	}
	return false, 0
}

// Retry runs fn until it succeeds, fails with a code that is not retried, or
// ctx ends. Waits select on ctx and the injected clock. When ctx ends during
// retries, the error says what was retried, how often, and the last failure.
// Each decision is logged at DEBUG, and a retry that lasts at INFO, through
// the logger ctx carries (see WithLogger).
func Retry(ctx context.Context, clock Clock, b Backoff, what string, fn func(context.Context) error) error {
	return retry(ctx, clock, what, fn, func(err error, attempt int) (bool, time.Duration, error) {
		retry, wait := RetryDecision(err, attempt, b)
		return retry, wait, nil
	})
}

// decider is one retry loop's policy: whether to retry after attempt
// number attempt failed with err, and after which wait. When it does not
// retry, stop, if not nil, is the error the loop returns instead of err.
type decider func(err error, attempt int) (retry bool, wait time.Duration, stop error)

// retry is the loop of Retry, under the policy decide.
func retry(ctx context.Context, clock Clock, what string, fn func(context.Context) error, decide decider) error {
	p := newProgress(ctx, clock, what)
	// The last failure the backend itself gave: when the timeout ends an
	// attempt half-way, that failure, not the cut-off attempt, is why the
	// call was retried, and what the message should show.
	var failed error
	for attempt := 1; ; attempt++ {
		err := fn(ctx)
		if err != nil && !Canceled(err) {
			failed = err
		}
		var retry bool
		var wait time.Duration
		var stop error
		if err != nil {
			retry, wait, stop = decide(err, attempt)
		}
		if !retry {
			if err != nil && Canceled(err) && ctx.Err() != nil {
				if failed != nil {
					err = failed
				}
				return p.gaveUp(ctx, attempt, err)
			}
			switch {
			case stop != nil:
				p.debug(ctx, "giving up", failure(map[string]any{"attempt": attempt, "why": "the endpoint stayed unreachable for the read's budget"}, err))
				return stop
			case err != nil:
				p.debug(ctx, "not retrying", failure(map[string]any{"attempt": attempt, "why": whyNot(err)}, err))
			case attempt > 1:
				p.debug(ctx, "succeeded after retries", map[string]any{"attempts": attempt})
			}
			return err
		}
		if ctx.Err() != nil {
			return p.gaveUp(ctx, attempt, err)
		}
		if past := limitPastDeadline(ctx, clock, err, wait); past != nil {
			p.debug(ctx, "not waiting", failure(map[string]any{"attempt": attempt, "wait": wait.String(), "why": "the rate limit resets after the timeout"}, err))
			return past
		}
		p.debug(ctx, "retrying", failure(map[string]any{"attempt": attempt, "wait": wait.String()}, err))
		p.retrying(ctx, "still retrying", wait, failure(map[string]any{"attempts": attempt}, err))
		select {
		case <-ctx.Done():
			return p.gaveUp(ctx, attempt, err)
		case <-clock.After(wait):
		}
	}
}

// gaveUp logs and builds the give-up error.
func (p *progress) gaveUp(ctx context.Context, attempts int, last error) error {
	p.debug(ctx, "giving up: the operation's timeout or a cancellation came", failure(map[string]any{"attempts": attempts}, last))
	return gaveUp(p.what, attempts, p.elapsed(), last)
}

// gaveUp says what was retried, for how long and how often, so the reader
// can tell a backend that kept failing from one that never got a chance.
// The code stays the last failure's: a give-up is never absence.
func gaveUp(what string, attempts int, took time.Duration, last error) error {
	code := CodeOf(last)
	if Canceled(last) {
		code = Transient
	}
	return &Error{Code: code, Err: last,
		Message: fmt.Sprintf("%s: retried for %s (%d attempt(s)) until the timeout or cancellation came; last error: %v",
			what, took.Round(time.Second), attempts, last)}
}

// WaitFor polls check until it reports done, returns a non-retryable error,
// or ctx ends. Poll intervals follow b; Transient and RateLimited errors from
// check are retried like any other call. A check tells the wait what it saw
// with ReportState; each poll is logged at DEBUG and a wait that lasts at
// INFO with the last state seen, through the logger ctx carries.
func WaitFor(ctx context.Context, clock Clock, b Backoff, what string, check func(context.Context) (bool, error)) error {
	p := newProgress(ctx, clock, what)
	seen := &seenState{}
	checkCtx := context.WithValue(ctx, stateKey{}, seen)
	var last error
	for attempt := 1; ; attempt++ {
		done, err := check(checkCtx)
		if err == nil && done {
			p.debug(ctx, "wait over", seen.into(map[string]any{"checks": attempt}))
			return nil
		}
		wait := b.Delay(attempt)
		fields := seen.into(map[string]any{"checks": attempt})
		if err != nil && Canceled(err) && ctx.Err() != nil {
			// The check failed only because the wait's own time ran out
			// during it: what the wait saw before is the news.
			return p.timedOut(ctx, attempt, last, seen)
		}
		if err != nil {
			retry, w := RetryDecision(err, attempt, b)
			if !retry {
				p.debug(ctx, "wait failed", failure(map[string]any{"checks": attempt, "why": whyNot(err)}, err))
				return err
			}
			wait, last = w, err
			fields = failure(fields, err)
		}
		if ctx.Err() != nil {
			return p.timedOut(ctx, attempt, last, seen)
		}
		if past := limitPastDeadline(ctx, clock, err, wait); past != nil {
			return past
		}
		p.debug(ctx, "waiting", withField(fields, "next_check_in", wait.String()))
		if err != nil {
			p.retrying(ctx, "still waiting", wait, fields)
		} else {
			p.waiting(ctx, "still waiting", wait, fields)
		}
		select {
		case <-ctx.Done():
			return p.timedOut(ctx, attempt, last, seen)
		case <-clock.After(wait):
		}
	}
}

func (p *progress) timedOut(ctx context.Context, checks int, last error, seen *seenState) error {
	p.debug(ctx, "giving up the wait: the operation's timeout or a cancellation came", map[string]any{"checks": checks})
	return waitTimedOut(ctx, p.what, checks, last, seen)
}

// waitTimedOut says what the wait last saw: the last failed check (unless
// it failed only because the wait's own time ran out), else the state the
// last check reported (what stands between the machine and
// the wait's end, e.g. a guest whose agent is not running), else the
// context's end.
func waitTimedOut(ctx context.Context, what string, checks int, last error, seen *seenState) error {
	switch {
	case last != nil && !Canceled(last):
	case seen != nil && seen.state != "":
		return &Error{Code: Transient, Err: ctx.Err(),
			Message: fmt.Sprintf("timed out waiting for %s after %d check(s); last seen: %s", what, checks, seen.state)}
	default:
		last = ctx.Err()
	}
	return &Error{Code: Transient, Err: ctx.Err(),
		Message: fmt.Sprintf("timed out waiting for %s after %d check(s); last: %v", what, checks, last)}
}
