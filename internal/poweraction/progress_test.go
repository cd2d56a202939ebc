package poweraction

import (
	"context"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// TestWaitsReportAsProgress: what a lasting wait logs at INFO (the state
// it last saw) and a fallback's WARN reach the action's progress, with the
// fields a reader needs; DEBUG lines do not.
func TestWaitsReportAsProgress(t *testing.T) {
	var sent []string
	ctx := withProgress(context.Background(), func(s string) { sent = append(sent, s) })
	log := adapter.LoggerFrom(ctx)
	log.Debug(ctx, "waiting", map[string]any{"what": "machine 7 to be running"})
	log.Info(ctx, "still waiting", map[string]any{"what": "machine 7 to be running", "last_state": "pending (raw: starting)", "elapsed": "12s", "checks": 3})
	log.Warn(ctx, "Machine powered off hard", map[string]any{"machine_id": "7", "shutdown_timeout": "1m"})
	want := []string{
		"still waiting for machine 7 to be running (last_state: pending (raw: starting), elapsed: 12s)",
		"Machine powered off hard (machine_id: 7, shutdown_timeout: 1m)",
	}
	if strings.Join(sent, "\n") != strings.Join(want, "\n") {
		t.Errorf("progress sent:\n%s\nwant:\n%s", strings.Join(sent, "\n"), strings.Join(want, "\n"))
	}
}
