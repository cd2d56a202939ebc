package adaptertest

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// InstantClock never waits: polls and retries run back to back. The
// emulators move on by the number of reads, not by wall time, so a test on
// this clock never sleeps.
type InstantClock struct{}

// Now is the wall clock's now.
func (InstantClock) Now() time.Time { return time.Now() }

// After has fired already.
func (InstantClock) After(time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	ch <- time.Now()
	return ch
}

// Log keeps every line logged, at any level, as "message map[fields]", so
// that a test can search what an adapter wrote for a route or a secret. It
// is safe for concurrent writers.
type Log struct {
	mu    sync.Mutex
	lines []string
}

func (l *Log) add(msg string, f map[string]any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprint(msg, " ", f))
}

// Debug keeps the line.
func (l *Log) Debug(_ context.Context, msg string, f map[string]any) { l.add(msg, f) }

// Info keeps the line.
func (l *Log) Info(_ context.Context, msg string, f map[string]any) { l.add(msg, f) }

// Warn keeps the line.
func (l *Log) Warn(_ context.Context, msg string, f map[string]any) { l.add(msg, f) }

// Lines is every line kept so far, oldest first.
func (l *Log) Lines() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.lines...)
}

// Text is every line kept so far, one a line.
func (l *Log) Text() string { return strings.Join(l.Lines(), "\n") }

// Unavailable answers every request 503: an endpoint that is reached but
// failing, which a test sets beside the unreachable ones.
var Unavailable http.Handler = http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
	w.WriteHeader(http.StatusServiceUnavailable)
})

// Planned is an account as a plan reads it: one machine, the managed
// machines, the offers and the account's health check.
type Planned interface {
	adapter.Adapter
	adapter.Lister
	adapter.Checker
}

// PlanReads makes every read a plan makes of a, id being the machine read,
// and returns each read's error by the name of its call.
func PlanReads(ctx context.Context, a Planned, id string) map[string]error {
	_, errGet := a.Get(ctx, id)
	_, errList := a.List(ctx)
	_, errOffers := a.ListOffers(ctx, adapter.Query{})
	return map[string]error{"Get": errGet, "List": errList, "ListOffers": errOffers, "Check": a.Check(ctx)}
}

// StepClock is a clock a test moves by hand (Step), from Start. Its waits
// fire at once without moving it: time passes only when the test says.
type StepClock struct {
	mu    sync.Mutex
	moved time.Duration
}

// Start is where every StepClock begins.
var Start = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// Now is Start moved by every Step so far.
func (c *StepClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return Start.Add(c.moved)
}

// After has fired already, at Now.
func (c *StepClock) After(time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	ch <- c.Now()
	return ch
}

// Step moves the clock on by d.
func (c *StepClock) Step(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.moved += d
}

// Failure is what every read of a plan must fail with (see ExpectPlanReads).
type Failure struct {
	// Unreachable: the endpoint could not be reached at all.
	Unreachable bool
	// Code is the error's code (Transient when empty) and Field the
	// setting it names, if any.
	Code  adapter.Code
	Field string
	// Says is a part of the message.
	Says string
}

// ExpectPlanReads makes every read a plan makes of a (PlanReads) and
// fails t for each that does not fail as want says, or that reads as the
// machine's absence.
func ExpectPlanReads(ctx context.Context, t testing.TB, a Planned, id string, want Failure) {
	t.Helper()
	if want.Code == "" {
		want.Code = adapter.Transient
	}
	for call, err := range PlanReads(ctx, a, id) {
		if adapter.Unreachable(err) != want.Unreachable || !adapter.Is(err, want.Code) || adapter.FieldOf(err) != want.Field || adapter.IsNotFound(err) {
			t.Errorf("%s: %v (unreachable %t, field %q), want %s on %q with unreachable %t",
				call, err, adapter.Unreachable(err), adapter.FieldOf(err), want.Code, want.Field, want.Unreachable)
		}
		if err == nil || !strings.Contains(err.Error(), want.Says) {
			t.Errorf("%s: %v does not say %q", call, err, want.Says)
		}
	}
}
