package poweraction

import (
	"context"
	"fmt"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// progressLogger passes the contract's log lines on and shows the ones a
// user running at the default level sees (INFO and WARN: a wait or retry
// that lasts, with the state it last saw, and a fallback) as the action's
// progress, which Terraform prints while the action runs. The lines carry
// only what is safe to print (adapter.Logger), and only a few of their
// fields are shown.
type progressLogger struct {
	adapter.Logger
	send func(string)
}

// withProgress returns ctx whose waits and retries also report to send.
func withProgress(ctx context.Context, send func(string)) context.Context {
	if send == nil {
		return ctx
	}
	return adapter.WithLogger(ctx, progressLogger{Logger: adapter.LoggerFrom(ctx), send: send})
}

func (l progressLogger) Info(ctx context.Context, msg string, fields map[string]any) {
	l.Logger.Info(ctx, msg, fields)
	l.send(progressLine(msg, fields))
}

func (l progressLogger) Warn(ctx context.Context, msg string, fields map[string]any) {
	l.Logger.Warn(ctx, msg, fields)
	l.send(progressLine(msg, fields))
}

// progressLine is msg with the fields a reader needs: "still waiting for
// machine 42 to be running (last_state: pending (raw: starting), elapsed: 12s)".
func progressLine(msg string, fields map[string]any) string {
	line := msg
	if what, ok := fields["what"]; ok {
		line += fmt.Sprintf(" for %v", what)
	}
	var parts []string
	for _, k := range []string{"machine_id", "last_state", "reason", "elapsed", "shutdown_timeout"} {
		if v, ok := fields[k]; ok {
			parts = append(parts, fmt.Sprintf("%s: %v", k, v))
		}
	}
	if len(parts) > 0 {
		line += " (" + strings.Join(parts, ", ") + ")"
	}
	return line
}
