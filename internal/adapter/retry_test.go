package adapter

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestBackoffDelay(t *testing.T) {
	b := Backoff{Initial: time.Second, Max: 5 * time.Second}
	got := []time.Duration{b.Delay(1), b.Delay(2), b.Delay(3), b.Delay(4), b.Delay(10)}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second, 5 * time.Second}
	if !slices.Equal(got, want) {
		t.Fatalf("delays %v, want %v", got, want)
	}
	steady := Backoff{Initial: time.Second, Max: 5 * time.Second, Steady: 3}
	got = []time.Duration{steady.Delay(1), steady.Delay(3), steady.Delay(4), steady.Delay(5), steady.Delay(6), steady.Delay(20)}
	want = []time.Duration{time.Second, time.Second, time.Second, 2 * time.Second, 4 * time.Second, 5 * time.Second}
	if !slices.Equal(got, want) {
		t.Fatalf("steady delays %v, want %v", got, want)
	}
}

func TestRetryDecisionCoversEveryCode(t *testing.T) {
	b := Backoff{Initial: time.Second, Max: time.Minute}
	for _, code := range Codes {
		err := &Error{Code: code, RetryAfter: 7 * time.Second}
		retry, wait := RetryDecision(err, 1, b)
		switch code {
		case Transient:
			if !retry || wait != time.Second {
				t.Errorf("%s: retry=%v wait=%v", code, retry, wait)
			}
		case RateLimited:
			if !retry || wait != 7*time.Second {
				t.Errorf("%s: retry=%v wait=%v, want retry-after honoured", code, retry, wait)
			}
		default:
			if retry {
				t.Errorf("%s must not be retried", code)
			}
		}
	}
	if retry, _ := RetryDecision(errors.New("plain"), 1, b); !retry {
		t.Error("an unclassified error is Transient and must be retried")
	}
	if retry, _ := RetryDecision(context.Canceled, 1, b); retry {
		t.Error("a cancelled context must not be retried")
	}
	silent := fmt.Errorf("read server 42: %w", &Error{Code: Transient, Message: "did not answer within 5s", Err: ErrNoAnswer})
	if retry, _ := RetryDecision(silent, 1, b); retry || !Is(silent, Transient) {
		t.Error("a request the backend never answered is Transient and not retried again")
	}
}

// TestRetryStopsAtASilentBackend: a failure that says the backend failed
// is retried, a request it never answered ends the retries at once, and
// neither becomes absence.
func TestRetryStopsAtASilentBackend(t *testing.T) {
	clock := &fakeClock{}
	// The cancel only bounds the test when the silence is retried.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	calls := 0
	err := Retry(ctx, clock, DefaultBackoff, "read server 42", func(context.Context) error {
		calls++
		if calls == 5 {
			cancel()
		}
		if calls == 1 {
			return Errorf(Transient, "the API failed (HTTP 503)")
		}
		return &Error{Code: Transient, Message: "did not answer within 5s, nor when asked once more", Err: ErrNoAnswer}
	})
	if calls != 2 || !NoAnswer(err) || IsNotFound(err) || !strings.Contains(err.Error(), "did not answer within 5s") {
		t.Fatalf("err=%v after %d calls, want the silence after 2", err, calls)
	}
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	polls := 0
	err = WaitFor(ctx, clock, DefaultBackoff, "running", func(context.Context) (bool, error) {
		polls++
		if polls == 5 {
			cancel()
		}
		return false, &Error{Code: Transient, Err: ErrNoAnswer}
	})
	if polls != 1 || !NoAnswer(err) {
		t.Fatalf("wait: err=%v after %d polls, want the silence after 1", err, polls)
	}
}

func TestRetryStopsOnSuccessAndOnFinalCodes(t *testing.T) {
	clock := &fakeClock{}
	calls := 0
	err := Retry(context.Background(), clock, DefaultBackoff, "create server", func(context.Context) error {
		calls++
		if calls < 3 {
			return Errorf(Transient, "503")
		}
		return nil
	})
	if err != nil || calls != 3 || len(clock.waits) != 2 {
		t.Fatalf("err=%v calls=%d waits=%v", err, calls, clock.waits)
	}

	calls = 0
	err = Retry(context.Background(), clock, DefaultBackoff, "create server", func(context.Context) error {
		calls++
		return Errorf(InvalidInput, "bad image")
	})
	if !Is(err, InvalidInput) || calls != 1 {
		t.Fatalf("err=%v calls=%d, want one InvalidInput attempt", err, calls)
	}
}

func TestRetryGivesUpWithWhatWasRetried(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	clock := &fakeClock{}
	calls := 0
	err := Retry(ctx, clock, DefaultBackoff, "create server web-1", func(context.Context) error {
		calls++
		if calls == 4 {
			cancel()
		}
		return Errorf(RateLimited, "rate limit exceeded")
	})
	if err == nil || !strings.Contains(err.Error(), "create server web-1") || !strings.Contains(err.Error(), "retried for 7s (4 attempt") ||
		!strings.Contains(err.Error(), "rate limit exceeded") || !Is(err, RateLimited) {
		t.Fatalf("error %v must name what was retried, for how long, how often and the last failure", err)
	}
}

func TestWaitForPollsUntilDone(t *testing.T) {
	clock := &fakeClock{}
	polls := 0
	err := WaitFor(context.Background(), clock, Backoff{Initial: time.Second, Max: 4 * time.Second}, "running", func(context.Context) (bool, error) {
		polls++
		if polls == 2 {
			return false, Errorf(Transient, "502")
		}
		return polls == 5, nil
	})
	if err != nil || polls != 5 {
		t.Fatalf("err=%v polls=%d", err, polls)
	}
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 4 * time.Second}
	if !slices.Equal(clock.waits, want) {
		t.Fatalf("waits %v, want %v", clock.waits, want)
	}
}

func TestWaitForReturnsFinalErrorsAndTimesOut(t *testing.T) {
	clock := &fakeClock{}
	err := WaitFor(context.Background(), clock, DefaultBackoff, "running", func(context.Context) (bool, error) {
		return false, Errorf(AccessDenied, "no")
	})
	if !Is(err, AccessDenied) {
		t.Fatalf("err=%v, want AccessDenied passed through", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	polls := 0
	err = WaitFor(ctx, clock, DefaultBackoff, "server 42 running", func(context.Context) (bool, error) {
		polls++
		if polls == 3 {
			cancel()
		}
		return false, nil
	})
	if !Is(err, Transient) || !strings.Contains(err.Error(), "server 42 running") {
		t.Fatalf("err=%v, want a timeout naming what was awaited", err)
	}
}

// TestRetryReportsTheBackendsFailureWhenTheTimeoutCutsAnAttempt: the
// timeout that ends an attempt half-way is not the failure to report; the
// backend's last one is.
func TestRetryReportsTheBackendsFailureWhenTheTimeoutCutsAnAttempt(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	attempts := 0
	err := Retry(ctx, &fakeClock{}, Backoff{Initial: time.Millisecond, Max: time.Millisecond}, "read server 42", func(ctx context.Context) error {
		attempts++
		if attempts == 3 {
			cancel()
			return ctx.Err()
		}
		return Errorf(Transient, "the API failed (HTTP 503 unavailable)")
	})
	if err == nil || !strings.Contains(err.Error(), "HTTP 503") || CodeOf(err) != Transient {
		t.Fatalf("got %v, want a give-up naming the backend's 503", err)
	}
}

// TestWaitForTimeoutSaysWhatItLastSaw: a wait that runs out of time names
// the state its last check reported (what kept it from ending, e.g. a
// guest whose agent is not running), rather than the bare context's end;
// also when the time runs out while a check is reading (the read gives up
// on the deadline, as a Retry inside the check does), which on a loaded
// machine happens as often as between two checks.
func TestWaitForTimeoutSaysWhatItLastSaw(t *testing.T) {
	for name, cutRead := range map[string]bool{"between checks": false, "during a check": true} {
		t.Run(name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			polls := 0
			err := WaitFor(ctx, &fakeClock{}, DefaultBackoff, "machine 7 to be running", func(ctx context.Context) (bool, error) {
				polls++
				if polls == 3 {
					cancel()
					if cutRead {
						return false, gaveUp("read machine 7", 1, 0, ctx.Err())
					}
				}
				ReportState(ctx, "pending (raw: running (guest agent: not running))")
				return false, nil
			})
			if !Is(err, Transient) || !strings.Contains(err.Error(), "last seen: pending (raw: running (guest agent: not running))") {
				t.Fatalf("err=%v, want the timeout to name the last state seen", err)
			}
		})
	}
}
