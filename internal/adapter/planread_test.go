package adapter

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// refused is a refused connection as an adapter's classify returns it.
func refused() error {
	return &Error{Code: Transient, Message: "the API could not be reached (connection refused)",
		Err: MarkUnreachable(fmt.Errorf("dial tcp 127.0.0.1:1: %w", syscall.ECONNREFUSED))}
}

func failed503() error { return Errorf(Transient, "the API failed (HTTP 503)") }

// TestReadPolicyDecide: an unreachable endpoint gets quick retries until
// the budget, the last wait ending on it; a failing or busy backend keeps
// the ordinary backoff whatever the budget; what Retry does not retry a
// read does not either.
func TestReadPolicyDecide(t *testing.T) {
	p := PlanReads(30 * time.Second)
	rateLimited := &Error{Code: RateLimited, RetryAfter: 40 * time.Second}
	pinned := &Error{Code: InvalidConfig, Field: "tls_fingerprint", Err: MarkUnreachable(errors.New("certificate does not match"))}
	silent := &Error{Code: Transient, Err: ErrNoAnswer}
	for _, c := range []struct {
		name    string
		err     error
		attempt int
		down    time.Duration
		retry   bool
		wait    time.Duration
	}{
		{"unreachable, first failure", refused(), 1, 0, true, time.Second},
		{"unreachable, quick backoff capped", refused(), 5, 15 * time.Second, true, 8 * time.Second},
		{"unreachable, last wait ends on the budget", refused(), 6, 23 * time.Second, true, 7 * time.Second},
		{"unreachable, budget spent", refused(), 7, 30 * time.Second, false, 0},
		{"unreachable, past the budget on the first attempt", refused(), 1, 45 * time.Second, false, 0},
		{"5xx long past the budget", failed503(), 9, time.Hour, true, 30 * time.Second},
		{"5xx, first failure", failed503(), 1, 0, true, time.Second},
		{"429 honours retry-after past the budget", rateLimited, 1, time.Hour, true, 40 * time.Second},
		{"a refused certificate is not retried", pinned, 1, 0, false, 0},
		{"a silence is not retried", silent, 1, 0, false, 0},
	} {
		retry, wait := p.Decide(c.err, c.attempt, c.down)
		if retry != c.retry || wait != c.wait {
			t.Errorf("%s: retry=%v wait=%s, want retry=%v wait=%s", c.name, retry, wait, c.retry, c.wait)
		}
	}
}

// TestPlanReadGivesUpAnUnreachableEndpoint: a read made while planning
// tries a refused endpoint seven times over 30s of the clock and gives up
// with an error that says so, keeps the code and is never absence; the
// same failure in an apply's Retry goes on until the operation's timeout.
func TestPlanReadGivesUpAnUnreachableEndpoint(t *testing.T) {
	clock := &fakeClock{}
	c := NewCached(&fakeAdapter{}, clock, 0)
	calls := 0
	err := c.PlanRead(context.Background(), PlanReads(30*time.Second), "read machine 42", func(context.Context) error {
		calls++
		return refused()
	})
	wantWaits := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 8 * time.Second, 7 * time.Second}
	if calls != 7 || !slices.Equal(clock.waits, wantWaits) {
		t.Fatalf("%d attempts with waits %v, want 7 with %v", calls, clock.waits, wantWaits)
	}
	if !Unreachable(err) || !Is(err, Transient) || IsNotFound(err) ||
		!strings.Contains(err.Error(), "read machine 42: gave up, since the endpoint could not be reached for 30s (7 attempt(s) by this read)") ||
		!strings.Contains(err.Error(), "connection refused") {
		t.Fatalf("err = %v", err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	applied := 0
	err = Retry(ctx, &fakeClock{}, DefaultBackoff, "create machine", func(context.Context) error {
		if applied++; applied == 20 {
			cancel()
		}
		return refused()
	})
	if applied != 20 || !Unreachable(err) || !strings.Contains(err.Error(), "until the timeout or cancellation came") {
		t.Fatalf("an apply's retry stopped after %d attempts: %v", applied, err)
	}
}

// TestPlanReadRidesOutAFailingBackend: 5xx and 429 are retried with the
// ordinary backoff until the read's timeout, however long past the
// unreachable budget.
func TestPlanReadRidesOutAFailingBackend(t *testing.T) {
	for name, fail := range map[string]func() error{
		"503": failed503,
		"429": func() error { return &Error{Code: RateLimited, RetryAfter: 40 * time.Second} },
	} {
		clock := &fakeClock{}
		c := NewCached(&fakeAdapter{}, clock, 0)
		ctx, cancel := context.WithCancel(context.Background())
		calls := 0
		err := c.PlanRead(ctx, PlanReads(30*time.Second), "list offers", func(context.Context) error {
			if calls++; calls == 12 {
				cancel()
			}
			return fail()
		})
		cancel()
		if calls != 12 || Unreachable(err) || !strings.Contains(err.Error(), "retried for") {
			t.Errorf("%s: %d attempts, err %v; want the retries to go on until the timeout", name, calls, err)
		}
		if took := clock.Now().Sub(time.Time{}); took < 2*time.Minute {
			t.Errorf("%s: retried for %s of the clock only", name, took)
		}
	}
}

// TestPlanReadsShareTheEndpointsOutage: once a read through an account has
// given up on its unreachable endpoint, the next read through it makes one
// attempt; an answer ends the outage, after which a new one gets the whole
// budget again. Another account's reads are not concerned.
func TestPlanReadsShareTheEndpointsOutage(t *testing.T) {
	clock := &fakeClock{}
	c := NewCached(&fakeAdapter{}, clock, 0)
	p := PlanReads(30 * time.Second)
	read := func(c *Cached, outcomes ...func() error) (int, error) {
		calls := 0
		err := c.PlanRead(context.Background(), p, "read", func(context.Context) error {
			calls++
			if calls <= len(outcomes) {
				return outcomes[calls-1]()
			}
			return refused()
		})
		return calls, err
	}
	if n, err := read(c); n != 7 || !Unreachable(err) {
		t.Fatalf("first read: %d attempts, %v", n, err)
	}
	if n, err := read(c); n != 1 || !Unreachable(err) {
		t.Fatalf("a read after the give-up made %d attempts (%v), want 1", n, err)
	}
	if n, err := read(NewCached(&fakeAdapter{}, clock, 0)); n != 7 || !Unreachable(err) {
		t.Fatalf("another account's read made %d attempts (%v), want its own 7", n, err)
	}
	ok := func() error { return nil }
	if n, err := read(c, ok); n != 1 || err != nil {
		t.Fatalf("the endpoint is back: %d attempts, %v", n, err)
	}
	if n, _ := read(c); n != 7 {
		t.Fatalf("after an answer, a new outage got %d attempts, want the whole budget's 7", n)
	}
	// A 503 is an answer too, and so ends the outage.
	if n, err := read(c, ok); n != 1 || err != nil {
		t.Fatalf("a read that is answered: %d attempts, %v", n, err)
	}
	if n, _ := read(c, refused, failed503, refused); n != 9 {
		t.Fatalf("an outage broken by a 503 got %d attempts, want 2 + 7", n)
	}
	// A secret that did not resolve sent nothing: the outage stands.
	unresolved := func() error { return &Error{Code: InvalidConfig, Err: ErrUnresolved} }
	if n, err := read(c, unresolved); n != 1 || !Unresolved(err) {
		t.Fatalf("unresolved secret: %d attempts, %v", n, err)
	}
	if n, _ := read(c); n != 1 {
		t.Fatalf("an unresolved secret ended the outage: the next read made %d attempts, want 1", n)
	}
}

// TestPlanReadJoiningAnOutageGetsWhatIsLeft: a read that meets an outage
// another read met 20s before retries for the 10s left of the budget, so
// reads running side by side give up together.
func TestPlanReadJoiningAnOutageGetsWhatIsLeft(t *testing.T) {
	clock := &fakeClock{}
	c := NewCached(&fakeAdapter{}, clock, 0)
	p := PlanReads(30 * time.Second)
	ctx, cancel := context.WithCancel(context.Background())
	_ = c.PlanRead(ctx, p, "first", func(context.Context) error { cancel(); return refused() })
	clock.advance(20 * time.Second)
	clock.waits = nil
	calls := 0
	err := c.PlanRead(context.Background(), p, "second", func(context.Context) error { calls++; return refused() })
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second, 3 * time.Second}
	if calls != 5 || !slices.Equal(clock.waits, want) || !strings.Contains(err.Error(), "could not be reached for 30s (5 attempt(s) by this read)") {
		t.Fatalf("%d attempts, waits %v, err %v; want 5 attempts with waits %v", calls, clock.waits, err, want)
	}
}

// TestPlanReadBudgetIsTheReadsOwn: a read with a longer budget than the
// one that gave up goes on for the rest of its own.
func TestPlanReadBudgetIsTheReadsOwn(t *testing.T) {
	clock := &fakeClock{}
	c := NewCached(&fakeAdapter{}, clock, 0)
	_ = c.PlanRead(context.Background(), PlanReads(30*time.Second), "short", func(context.Context) error { return refused() })
	clock.waits = nil
	calls := 0
	_ = c.PlanRead(context.Background(), PlanReads(time.Minute), "long", func(context.Context) error { calls++; return refused() })
	var waited time.Duration
	for _, w := range clock.waits {
		waited += w
	}
	if waited != 30*time.Second || calls < 3 {
		t.Fatalf("the longer read waited %s in %d attempts, want the 30s its budget has left", waited, calls)
	}
}

// TestCachedGetSharesAnUnreachableListing: a listing that could not reach
// the endpoint fails every read of the run, without a direct read per
// machine.
func TestCachedGetSharesAnUnreachableListing(t *testing.T) {
	f := &fakeAdapter{listErr: refused()}
	c := NewCached(f, &fakeClock{}, 0)
	for _, id := range []string{"1", "2", "3"} {
		if _, err := c.Get(context.Background(), id); !Unreachable(err) || IsNotFound(err) {
			t.Fatalf("Get %s: %v", id, err)
		}
	}
	if n := f.gets.Load(); n != 0 {
		t.Errorf("%d direct reads after an unreachable listing, want none", n)
	}
}

// TestCannotReach: the transport failures that mean the endpoint was never
// reached, and those that do not.
func TestCannotReach(t *testing.T) {
	// The errors themselves come from real transports in each adapter's
	// tests; this is the contract's table.
	for _, c := range []struct {
		name string
		err  error
		want bool
	}{
		{"refused", fmt.Errorf("Get \"http://x/\": dial tcp: %w", syscall.ECONNREFUSED), true},
		{"no route", fmt.Errorf("dial: %w", syscall.EHOSTUNREACH), true},
		{"no such host", &net.DNSError{Name: "api.example.invalid", Err: "no such host", IsNotFound: true}, true},
		{"dial refused by a proxy", &net.OpError{Op: "dial", Net: "tcp", Err: errors.New("socks connect: general failure")}, true},
		{"dial timed out", &net.OpError{Op: "dial", Net: "tcp", Err: timeoutError{}}, false},
		{"untrusted", &tls.CertificateVerificationError{Err: x509.UnknownAuthorityError{}}, true},
		{"TLS alert", tls.AlertError(42), true},
		{"reset", fmt.Errorf("read: %w", syscall.ECONNRESET), false},
		{"deadline", fmt.Errorf("dial: %w", context.DeadlineExceeded), false},
		{"http over https", errors.New("http: server gave HTTP response to HTTPS client"), true},
		{"plain", errors.New("something"), false},
		{"nil", nil, false},
	} {
		if got := CannotReach(c.err); got != c.want {
			t.Errorf("%s: CannotReach = %v, want %v", c.name, got, c.want)
		}
	}
	if !Unreachable(refused()) || Unreachable(failed503()) || MarkUnreachable(nil) != nil {
		t.Error("MarkUnreachable/Unreachable disagree")
	}
	if err := refused(); !errors.Is(err, syscall.ECONNREFUSED) {
		t.Error("the mark hides the transport's own error from errors.Is")
	}
}

// timeoutError is a network error that timed out.
type timeoutError struct{}

func (timeoutError) Error() string   { return "i/o timeout" }
func (timeoutError) Timeout() bool   { return true }
func (timeoutError) Temporary() bool { return true }

// TestPlanReadsSideBySide: reads running at once through one account share
// the outage: none makes more attempts than one read alone would, and all
// give up on it. (Run with -race, it also guards the shared record.)
func TestPlanReadsSideBySide(t *testing.T) {
	// A clock without a lock of its own, which would order the reads.
	c := NewCached(&fakeAdapter{}, stoppedClock{}, 0)
	const n = 8
	attempts := make([]int, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = c.PlanRead(context.Background(), PlanReads(30*time.Second), "read", func(context.Context) error {
				attempts[i]++
				return refused()
			})
		}()
	}
	close(start)
	wg.Wait()
	for i := range n {
		if attempts[i] < 1 || attempts[i] > 7 || !Unreachable(errs[i]) {
			t.Errorf("read %d: %d attempts, %v; want 1 to 7 and a give-up", i, attempts[i], errs[i])
		}
	}
}

// stoppedClock never moves and never waits: time passes only as the waits
// a read counts.
type stoppedClock struct{}

func (stoppedClock) Now() time.Time { return time.Time{} }
func (stoppedClock) After(time.Duration) <-chan time.Time {
	ch := make(chan time.Time)
	close(ch)
	return ch
}
