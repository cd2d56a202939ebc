package adapter

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// recordingLogger keeps every line, for tests that read what was logged.
type recordingLogger struct {
	mu    sync.Mutex
	lines []logLine
}

type logLine struct {
	level, msg string
	fields     map[string]any
}

func (r *recordingLogger) add(level, msg string, f map[string]any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lines = append(r.lines, logLine{level, msg, f})
}

func (r *recordingLogger) Debug(_ context.Context, msg string, f map[string]any) {
	r.add("DEBUG", msg, f)
}
func (r *recordingLogger) Info(_ context.Context, msg string, f map[string]any) {
	r.add("INFO", msg, f)
}
func (r *recordingLogger) Warn(_ context.Context, msg string, f map[string]any) {
	r.add("WARN", msg, f)
}

func (r *recordingLogger) with(level, msg string) []logLine {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []logLine
	for _, l := range r.lines {
		if l.level == level && l.msg == msg {
			out = append(out, l)
		}
	}
	return out
}

func (r *recordingLogger) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var sb strings.Builder
	for _, l := range r.lines {
		fmt.Fprintf(&sb, "%s %s %v\n", l.level, l.msg, l.fields)
	}
	return sb.String()
}

func TestRetryLogsEachDecision(t *testing.T) {
	logs := &recordingLogger{}
	ctx := WithLogger(context.Background(), logs)
	calls := 0
	err := Retry(ctx, &fakeClock{}, DefaultBackoff, "create machine \"web-1\"", func(context.Context) error {
		calls++
		switch calls {
		case 1:
			return Errorf(Transient, "the API failed (HTTP 503)")
		case 2:
			return &Error{Code: RateLimited, Message: "rate limit exceeded", RetryAfter: 3 * time.Second}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	retries := logs.with("DEBUG", "retrying")
	if len(retries) != 2 {
		t.Fatalf("%d retry lines, want one per retried failure:\n%s", len(retries), logs)
	}
	want := []map[string]any{
		{"what": "create machine \"web-1\"", "attempt": 1, "code": "Transient", "reason": "the API failed (HTTP 503)", "wait": "1s"},
		{"attempt": 2, "code": "RateLimited", "reason": "rate limit exceeded", "wait": "3s"},
	}
	for i, w := range want {
		for k, v := range w {
			if retries[i].fields[k] != v {
				t.Errorf("retry %d: %s=%v, want %v (%v)", i+1, k, retries[i].fields[k], v, retries[i].fields)
			}
		}
	}
	if got := logs.with("DEBUG", "succeeded after retries"); len(got) != 1 || got[0].fields["attempts"] != 3 {
		t.Errorf("no line says the call succeeded at the third attempt:\n%s", logs)
	}

	_ = Retry(ctx, &fakeClock{}, DefaultBackoff, "read server 42", func(context.Context) error {
		return Errorf(AccessDenied, "the token is refused")
	})
	if got := logs.with("DEBUG", "not retrying"); len(got) != 1 || got[0].fields["code"] != "AccessDenied" ||
		!strings.Contains(fmt.Sprint(got[0].fields["why"]), "not retried") {
		t.Errorf("a final failure does not say why it is not retried:\n%s", logs)
	}
}

// TestRetryLogsNoUnclassifiedText: an error that is not classified may be
// a transport error holding a URL and its query; only its code is logged.
func TestRetryLogsNoUnclassifiedText(t *testing.T) {
	logs := &recordingLogger{}
	ctx, cancel := context.WithCancel(WithLogger(context.Background(), logs))
	defer cancel()
	calls := 0
	_ = Retry(ctx, &fakeClock{}, DefaultBackoff, "list servers", func(context.Context) error {
		calls++
		if calls == 3 {
			cancel()
		}
		return errors.New(`Get "https://api.example/v1/servers?label_selector=SENTINEL-query": EOF`)
	})
	if len(logs.with("DEBUG", "retrying")) == 0 || len(logs.with("DEBUG", "giving up: the operation's timeout or a cancellation came")) != 1 {
		t.Fatalf("the retries and the give-up were not logged:\n%s", logs)
	}
	if strings.Contains(logs.String(), "SENTINEL") {
		t.Errorf("the log holds an unclassified error's text:\n%s", logs)
	}
}

// TestWaitForSaysWhatItAwaits: a wait that lasts writes INFO lines, none
// before it has lasted a few seconds, not more than one per progressEvery,
// each naming what is awaited, for how long and the last state seen.
func TestWaitForSaysWhatItAwaits(t *testing.T) {
	logs := &recordingLogger{}
	ctx := WithLogger(context.Background(), logs)
	clock := &fakeClock{}
	polls := 0
	err := WaitFor(ctx, clock, Backoff{Initial: time.Second, Max: 4 * time.Second}, "machine 42 to be running", func(ctx context.Context) (bool, error) {
		polls++
		ReportState(ctx, fmt.Sprintf("pending (raw: initializing, poll %d)", polls))
		return polls == 12, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Polls at 0, 1, 3, 7, 11, ... 39s; the wait is over at 39s. The first
	// line comes before the wait from 3s to 7s, which ends past 5s.
	infos := logs.with("INFO", "still waiting")
	if len(infos) != 3 {
		t.Fatalf("%d INFO lines over a 39s wait, want 3 (at 3s, then every 10s or more):\n%s", len(infos), logs)
	}
	for i, want := range []struct{ elapsed, state string }{
		{"3s", "poll 3)"}, {"15s", "poll 6)"}, {"27s", "poll 9)"},
	} {
		f := infos[i].fields
		if f["what"] != "machine 42 to be running" || f["elapsed"] != want.elapsed ||
			!strings.HasPrefix(fmt.Sprint(f["last_state"]), "pending (raw: initializing") || !strings.HasSuffix(fmt.Sprint(f["last_state"]), want.state) {
			t.Errorf("INFO line %d: %v, want elapsed %s and the state of %s", i+1, f, want.elapsed, want.state)
		}
	}
	if got := logs.with("DEBUG", "waiting"); len(got) != 11 {
		t.Errorf("%d DEBUG poll lines, want one per poll that did not end the wait:\n%s", len(got), logs)
	}
	if got := logs.with("DEBUG", "wait over"); len(got) != 1 || got[0].fields["checks"] != 12 {
		t.Errorf("the end of the wait was not logged:\n%s", logs)
	}
}

// TestALongRetryWaitIsAnnounced: a single wait that is long by itself (a
// rate limit's retry-after) gets its WARN line before it starts.
func TestALongRetryWaitIsAnnounced(t *testing.T) {
	logs := &recordingLogger{}
	calls := 0
	_ = Retry(WithLogger(context.Background(), logs), &fakeClock{}, DefaultBackoff, "create machine \"web-1\"", func(context.Context) error {
		calls++
		if calls == 1 {
			return &Error{Code: RateLimited, Message: "rate limit exceeded", RetryAfter: 30 * time.Second}
		}
		return nil
	})
	// WARN: a failure is being retried, which the CLI's output should show.
	infos := logs.with("WARN", "still retrying")
	if len(infos) != 1 || infos[0].fields["next_check_in"] != "30s" || infos[0].fields["code"] != "RateLimited" {
		t.Fatalf("a 30s wait for a rate limit was not announced at WARN:\n%s", logs)
	}
}

func TestLoggerPlumbing(t *testing.T) {
	if _, ok := LoggerFrom(context.Background()).(NopLogger); !ok {
		t.Error("a context without a logger must give NopLogger")
	}
	if ctx := context.Background(); WithLogger(ctx, nil) != ctx {
		t.Error("WithLogger(nil) must leave the context alone")
	}
	ReportState(context.Background(), "outside any wait") // must not panic
	if _, ok := LoggerFor(nil, "hcloud").(NopLogger); !ok {
		t.Error("LoggerFor(nil) must give NopLogger")
	}
	k := kindLogger{}
	if got := LoggerFor(k, "hcloud").(kindLogger); got.kind != "hcloud" {
		t.Errorf("LoggerFor did not ask the KindLogger for the kind: %+v", got)
	}
}

type kindLogger struct {
	NopLogger
	kind string
}

func (k kindLogger) ForKind(kind string) Logger { return kindLogger{kind: kind} }
