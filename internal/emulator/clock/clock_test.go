package clock_test

import (
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/clock"
)

// TestWall: the wall clock reads the time of day, and a wait of nothing
// ends.
func TestWall(t *testing.T) {
	var c clock.Clock = clock.Wall{}
	before := time.Now()
	now := c.Now()
	after := time.Now()
	if now.Before(before) || now.After(after) {
		t.Fatalf("Now() = %v, want between %v and %v", now, before, after)
	}
	if at := <-c.After(0); at.Before(before) {
		t.Fatalf("After(0) delivered %v, before the test began at %v", at, before)
	}
}
