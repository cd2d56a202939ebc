// Package clock is what an emulator's timed work (tasks, boots, installs)
// waits on. Clock has the shape of the adapter's injected clock, so one
// fake clock in a test steps the adapter and the emulators alike; Wall is
// the clock of everything else.
//
// It imports the standard library only.
package clock

import "time"

// Clock tells the time and waits.
type Clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
}

// Wall is the real clock.
type Wall struct{}

func (Wall) Now() time.Time                         { return time.Now() }
func (Wall) After(d time.Duration) <-chan time.Time { return time.After(d) }
