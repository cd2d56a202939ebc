package adapter

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// ErrLimitPastTimeout marks a RateLimited failure whose budget comes back
// only after the operation's deadline: the retry loops fail at once instead
// of sleeping until the deadline, which would end in the same refusal, and
// the Terraform layer says that a longer timeout would not help. It is in
// the chain of such errors for errors.Is.
var ErrLimitPastTimeout = errors.New("the rate limit resets after the operation's timeout")

// LimitPastTimeout reports whether err is a rate limit that outlasts the
// operation's timeout.
func LimitPastTimeout(err error) bool { return errors.Is(err, ErrLimitPastTimeout) }

// limitPastDeadline is the error a retry loop returns instead of waiting
// wait after err, when err is RateLimited and the wait ends after ctx's
// deadline; nil when waiting is worth it. The deadline is the context's,
// which is wall-clock time; the time shown is the injected clock's, in UTC,
// as a user compares it with the clock on the wall.
func limitPastDeadline(ctx context.Context, clock Clock, err error, wait time.Duration) error {
	if CodeOf(err) != RateLimited {
		return nil
	}
	deadline, ok := ctx.Deadline()
	if !ok {
		return nil
	}
	left := time.Until(deadline)
	if wait <= left {
		return nil
	}
	back := clock.Now().Add(wait).UTC()
	return &Error{Code: RateLimited, RetryAfter: wait, Err: errors.Join(ErrLimitPastTimeout, err),
		Message: fmt.Sprintf("%v; the rate limit lets the next request through only at %s UTC (in %s), after this operation's timeout (in %s), "+
			"so the provider did not wait for it: a longer timeout would not help, run the command again after %s UTC",
			err, back.Format("2006-01-02 15:04:05"), wait.Round(time.Second), max(left, 0).Round(time.Second), back.Format("15:04"))}
}
