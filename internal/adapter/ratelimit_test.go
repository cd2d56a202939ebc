package adapter

import (
	"context"
	"strings"
	"testing"
	"time"
)

// A rate limit that resets after the operation's timeout fails at once,
// saying when the budget is back; one that resets within it is waited for.
func TestRetryFailsAtOnceWhenTheRateLimitOutlastsTheTimeout(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	// A loop that waits on the fake clock spins; a few calls end it.
	limited := func(after time.Duration) func(context.Context) error {
		n := 0
		return func(context.Context) error {
			if n++; n > 3 {
				cancel()
			}
			return &Error{Code: RateLimited, RetryAfter: after, Message: "rate limit exceeded"}
		}
	}
	clock := &fakeClock{now: time.Date(2026, 12, 6, 9, 10, 0, 0, time.UTC)}
	calls, hour := 0, limited(time.Hour)
	err := Retry(ctx, clock, DefaultBackoff, "read machine 42", func(ctx context.Context) error {
		calls++
		return hour(ctx)
	})
	if calls != 1 || len(clock.waits) != 0 {
		t.Fatalf("%d call(s), waits %v: want one call and no wait", calls, clock.waits)
	}
	if !Is(err, RateLimited) || !LimitPastTimeout(err) {
		t.Fatalf("err %v: want RateLimited marked LimitPastTimeout", err)
	}
	for _, want := range []string{"rate limit exceeded", "at 2026-12-06 10:10:00 UTC", "a longer timeout would not help", "after 10:10 UTC"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("err %q does not say %q", err, want)
		}
	}

	polls, hour := 0, limited(time.Hour)
	err = WaitFor(ctx, clock, DefaultBackoff, "wait for machine 42", func(ctx context.Context) (bool, error) {
		polls++
		return false, hour(ctx)
	})
	if polls != 1 || len(clock.waits) != 0 || !LimitPastTimeout(err) {
		t.Fatalf("WaitFor: %d poll(s), waits %v, err %v: want one poll, no wait, LimitPastTimeout", polls, clock.waits, err)
	}

	calls, twoSeconds := 0, limited(2*time.Second)
	err = Retry(ctx, clock, DefaultBackoff, "read machine 42", func(ctx context.Context) error {
		calls++
		if calls == 3 {
			return nil
		}
		return twoSeconds(ctx)
	})
	if err != nil || calls != 3 || len(clock.waits) != 2 || clock.waits[0] != 2*time.Second {
		t.Fatalf("a limit within the timeout: err %v, %d call(s), waits %v; want it waited out", err, calls, clock.waits)
	}
}
