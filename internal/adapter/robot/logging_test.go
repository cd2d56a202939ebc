package robot

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
)

// fieldLog keeps every line's fields as the logger was handed them.
type fieldLog struct {
	mu    sync.Mutex
	lines []map[string]any
}

func (l *fieldLog) add(f map[string]any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, f)
}
func (l *fieldLog) Debug(_ context.Context, _ string, f map[string]any) { l.add(f) }
func (l *fieldLog) Info(_ context.Context, _ string, f map[string]any)  { l.add(f) }
func (l *fieldLog) Warn(_ context.Context, _ string, f map[string]any)  { l.add(f) }

// asTerraformShows is a field as Terraform prints a plugin's log line: the
// line travels as JSON, is decoded into any (numbers become float64), and
// printed with %v.
func asTerraformShows(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var back any
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%v", back)
}

// TestLogNumbersAsText: a server number and a status reach Terraform's log
// as the digits they are (server=2100001, not 2.100001e+06), on the
// bootstrap phases' lines and on the request log alike.
func TestLogNumbersAsText(t *testing.T) {
	f := newFake()
	f.add(2100001, "", "AX42", "FSN1-DC14", statusReady)
	log := &fieldLog{}
	a := testAccount(t, f, log, nil)
	if _, err := a.Get(t.Context(), "2100001"); err != nil {
		t.Fatal(err)
	}
	// What the bootstrap phases log, through the same logger.
	a.c.Log.Info(t.Context(), "bootstrap phase", map[string]any{"server": 2100001, "phase": "rescue", "size": uint64(1 << 40), "ratio": 1.5e7})
	log.mu.Lock()
	defer log.mu.Unlock()
	if len(log.lines) < 2 {
		t.Fatalf("%d lines logged, want a request line and the phase line", len(log.lines))
	}
	if got := asTerraformShows(t, log.lines[0]["status"]); got != "200" {
		t.Errorf("the request line's status shows as %q, want 200", got)
	}
	phase := log.lines[len(log.lines)-1]
	for k, want := range map[string]string{"server": "2100001", "phase": "rescue", "size": "1099511627776", "ratio": "15000000"} {
		if got := asTerraformShows(t, phase[k]); got != want {
			t.Errorf("field %s shows as %q in Terraform's log, want %q", k, got, want)
		}
	}
}
