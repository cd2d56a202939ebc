package proxmox

import (
	"context"
	"sync"
	"testing"
	"time"
)

// taskClock is a clock whose waits pass at once, and which ends the task
// it follows (closes end) once its time reaches ends.
type taskClock struct {
	mu   sync.Mutex
	now  time.Time
	ends time.Time
	end  chan struct{}
}

func (c *taskClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *taskClock) After(d time.Duration) <-chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	if c.end != nil && !c.now.Before(c.ends) {
		close(c.end)
		c.end = nil
	}
	ch := make(chan time.Time, 1)
	ch <- c.now
	return ch
}

// clone starts a task on f that ends takes after now, and returns it with
// when it was posted.
func (c *taskClock) clone(f *fake, takes time.Duration) (string, time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.end = make(chan struct{})
	c.ends = c.now.Add(takes)
	f.mu.Lock()
	defer f.mu.Unlock()
	upid := f.task("pve1", "qmclone", 9000, c.end)
	f.tasks[upid].done = c.end
	return upid, c.now
}

// TestCloneWaitLearnsTheTemplatesCloneTime: the first 2s clone of a
// template is polled every quarter second (nine polls); the next clone's
// wait sleeps out the 1.75s the first was seen running, then polls every
// tenth of a second, so it costs four polls and sees the end within a
// tenth of a second of it.
func TestCloneWaitLearnsTheTemplatesCloneTime(t *testing.T) {
	f := newFake(t)
	a := testAccount(t, f, nil)
	a.opts.task = defaultOptions().task
	clock := &taskClock{now: time.Unix(1e9, 0)}
	a.clock = clock
	const route = "GET /nodes/{node}/tasks/{upid}/status"

	upid, posted := clock.clone(f, 2*time.Second)
	if err := a.waitClone(context.Background(), "clone", "pve1", upid, 9000, posted); err != nil {
		t.Fatal(err)
	}
	if got := f.count(route); got != 9 {
		t.Errorf("the first clone's wait polled %d times, want 9 (every quarter second until 2s)", got)
	}

	upid, posted = clock.clone(f, 2*time.Second)
	if err := a.waitClone(context.Background(), "clone", "pve1", upid, 9000, posted); err != nil {
		t.Fatal(err)
	}
	if got := f.count(route) - 9; got != 4 {
		t.Errorf("the second clone's wait polled %d times, want 4 (at 1.75s, then every tenth of a second)", got)
	}
	if late := clock.Now().Sub(posted) - 2*time.Second; late > 100*time.Millisecond {
		t.Errorf("the second clone's end was seen %s late, want within a tenth of a second", late)
	}
}
