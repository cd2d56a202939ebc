package proxmox

import (
	"context"
	"strings"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// task is GET /nodes/{node}/tasks/{upid}/status.
type task struct {
	Status     string `json:"status"`
	ExitStatus string `json:"exitstatus"`
}

// taskNode is the node a UPID names (UPID:pve1:…): a task's status is read
// on the node that runs it, which for a clone to another node is the
// template's.
func taskNode(upid, fallback string) string {
	parts := strings.Split(upid, ":")
	if len(parts) > 2 && parts[0] == "UPID" && parts[1] != "" {
		return parts[1]
	}
	return fallback
}

// waitTask polls a task until it stopped, on the account's clock. An
// exitstatus other than OK is the task's failure, classified like an API
// error (a lock timeout inside the task is Transient, and so on). The wait
// is bounded by the caller's context, or taskTimeout when it has none.
func (a *account) waitTask(ctx context.Context, what, node, upid string) error {
	return a.pollTask(ctx, what, node, upid, a.opts.task, nil)
}

// pollTask is waitTask on schedule, telling seen, when not nil, each
// status it reads and when it asked for it.
func (a *account) pollTask(ctx context.Context, what, node, upid string, schedule adapter.Backoff, seen func(status string, asked time.Time)) error {
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, a.opts.taskTimeout)
		defer cancel()
	}
	node = taskNode(upid, node)
	var result error
	err := adapter.WaitFor(ctx, a.clock, schedule, what, func(ctx context.Context) (bool, error) {
		var t task
		asked := a.clock.Now()
		if err := a.c.Get(ctx, "/nodes/{node}/tasks/{upid}/status", &t, node, upid); err != nil {
			return false, fail(what+": read the task's status", err)
		}
		if seen != nil {
			seen(t.Status, asked)
		}
		adapter.ReportState(ctx, t.Status)
		if t.Status != "stopped" {
			return false, nil
		}
		if t.ExitStatus != "OK" && !strings.HasPrefix(t.ExitStatus, "WARNINGS") {
			result = fail(what, &apiError{What: "task " + upid, Message: t.ExitStatus})
		}
		return true, nil
	})
	if err != nil {
		return err
	}
	return result
}

// postTask sends a write that starts a task and waits for it.
func (a *account) postTask(ctx context.Context, what, node, route string, form map[string][]string, args ...string) error {
	var upid string
	if err := a.c.Post(ctx, route, form, &upid, args...); err != nil {
		return fail(what, err)
	}
	return a.waitTask(ctx, what, node, upid)
}
