package proxmox

import (
	"context"
	"sync"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// cloneTimes learns, per template and process, how long its clone tasks
// run, so that the waits of the clones queued behind the first skip the
// polls that could only answer "running" and then look closely: clones of
// one template run one after another, and each clone's end seen late
// delays every clone behind it. What is kept is a lower bound: how long
// after the clone's POST was answered the last poll that saw its task
// still running was sent, the least over the template's clones. A task
// seen stopped at its first poll teaches 0, which turns the learning off
// for the template.
type cloneTimes struct {
	mu    sync.Mutex
	least map[int]time.Duration
}

func (c *cloneTimes) get(template int) (time.Duration, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	d, ok := c.least[template]
	return d, ok
}

func (c *cloneTimes) note(template int, running time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.least == nil {
		c.least = map[int]time.Duration{}
	}
	if d, ok := c.least[template]; !ok || running < d {
		c.least[template] = running
	}
}

// closePoll paces the polls of a clone past the learnt bound: its end is
// near, so a tenth of a second for a second, then the usual doubling.
var closePoll = adapter.Backoff{Initial: 100 * time.Millisecond, Max: 5 * time.Second, Steady: 10}

// waitClone waits for the clone task upid of template tpl, which the POST
// answered at posted: it first sleeps out what the template's earlier
// clones teach, then polls closely; without a lesson it polls as every
// task wait does.
func (a *account) waitClone(ctx context.Context, what, node, upid string, tpl int, posted time.Time) error {
	schedule := a.opts.task
	if least, ok := a.clones.get(tpl); ok && least > 0 {
		if d := posted.Add(least).Sub(a.clock.Now()); d > 0 {
			select {
			case <-a.clock.After(d):
			case <-ctx.Done():
				return &adapter.Error{Code: adapter.Transient, Err: ctx.Err(), Message: what + ": the call ended while it waited for the clone task"}
			}
		}
		schedule = closePoll
	}
	var running time.Duration
	err := a.pollTask(ctx, what, node, upid, schedule, func(status string, asked time.Time) {
		if status != "stopped" {
			// It ran when the poll was sent at the latest.
			running = max(asked.Sub(posted), 0)
		}
	})
	if err == nil || adapter.CodeOf(err) != adapter.Transient {
		// A task that ended, OK or not, ran that long at least.
		a.clones.note(tpl, running)
	}
	return err
}
