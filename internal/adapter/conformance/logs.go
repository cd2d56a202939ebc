package conformance

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// userDataSentinel is in the user data of every machine the suite creates:
// user data may hold secrets, so no error, log line or Machine may repeat it.
const userDataSentinel = "conformance-userdata-sentinel-5d1e"

var userData = "#cloud-config\n# " + userDataSentinel + "\n"

// sentinels are the strings nothing the adapter says may carry.
func (s *suite) sentinels() []string {
	out := []string{userDataSentinel}
	for _, v := range s.Secrets {
		if v != "" {
			out = append(out, v)
		}
	}
	return out
}

// capture is the Logger the suite hands the adapter: it keeps every line,
// fields rendered the way a log sink would render them, and passes it on.
type capture struct {
	next adapter.Logger

	mu    sync.Mutex
	lines []string
}

var _ adapter.Logger = (*capture)(nil)

func (c *capture) record(level, msg string, fields map[string]any) {
	c.mu.Lock()
	c.lines = append(c.lines, fmt.Sprintf("%s %s %+v %v", level, msg, fields, fields))
	c.mu.Unlock()
}

// Debug records the line.
func (c *capture) Debug(ctx context.Context, msg string, fields map[string]any) {
	c.record("DEBUG", msg, fields)
	if c.next != nil {
		c.next.Debug(ctx, msg, fields)
	}
}

// Info records the line.
func (c *capture) Info(ctx context.Context, msg string, fields map[string]any) {
	c.record("INFO", msg, fields)
	if c.next != nil {
		c.next.Info(ctx, msg, fields)
	}
}

// Warn records the line.
func (c *capture) Warn(ctx context.Context, msg string, fields map[string]any) {
	c.record("WARN", msg, fields)
	if c.next != nil {
		c.next.Warn(ctx, msg, fields)
	}
}

func (c *capture) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.lines)
}

// checkClean fails t for every captured line that carries a sentinel.
func (c *capture) checkClean(t *testing.T, sentinels []string) {
	t.Helper()
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, line := range c.lines {
		for _, s := range sentinels {
			if strings.Contains(line, s) {
				t.Errorf("a log line carries a secret or user data (%.12s…): %s", s, line)
			}
		}
	}
}

// everything renders err and every error in its chain in each way a
// diagnostic or a log sink might.
func everything(err error) string {
	var sb strings.Builder
	var walk func(error)
	walk = func(e error) {
		if e == nil {
			return
		}
		fmt.Fprintf(&sb, "%v\n%+v\n%s\n", e, e, e.Error())
		if joined, ok := e.(interface{ Unwrap() []error }); ok {
			for _, j := range joined.Unwrap() {
				walk(j)
			}
			return
		}
		walk(errors.Unwrap(e))
	}
	walk(err)
	return sb.String()
}
