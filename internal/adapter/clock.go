package adapter

import "time"

// Clock is injected wherever code waits, so tests never sleep.
type Clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
}

// RealClock is the wall clock.
type RealClock struct{}

// Now returns time.Now.
func (RealClock) Now() time.Time { return time.Now() }

// After returns time.After.
func (RealClock) After(d time.Duration) <-chan time.Time { return time.After(d) }
