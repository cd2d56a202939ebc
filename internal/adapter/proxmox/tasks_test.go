package proxmox

import (
	"testing"
	"time"
)

// TestTaskEndSeenWithinAQuarterSecond: clones of one template run one after
// another, so each clone's end seen late delays all queued behind it; a
// task of up to five seconds is seen within a quarter second of its end.
// Doubling from the start saw a 2s clone end at 3.75s.
func TestTaskEndSeenWithinAQuarterSecond(t *testing.T) {
	b := defaultOptions().task
	for _, ends := range []time.Duration{time.Second, 2 * time.Second, 3500 * time.Millisecond, 5 * time.Second} {
		at := time.Duration(0)
		for attempt := 1; at < ends; attempt++ {
			at += b.Delay(attempt)
		}
		if at > ends+b.Initial {
			t.Errorf("a task that ends after %s is seen at %s, want within %s", ends, at, b.Initial)
		}
	}
	if d := b.Delay(100); d != 5*time.Second {
		t.Errorf("a long task is polled every %s, want 5s", d)
	}
}
