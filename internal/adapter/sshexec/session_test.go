package sshexec

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/adaptertest"
)

// manualClock fires an After only when the test says so, per duration.
type manualClock struct {
	mu    sync.Mutex
	chans map[time.Duration]chan time.Time
}

func (c *manualClock) Now() time.Time { return time.Unix(0, 0) }

func (c *manualClock) After(d time.Duration) <-chan time.Time { return c.ch(d) }

func (c *manualClock) ch(d time.Duration) chan time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.chans == nil {
		c.chans = map[time.Duration]chan time.Time{}
	}
	if c.chans[d] == nil {
		c.chans[d] = make(chan time.Time)
	}
	return c.chans[d]
}

// fire ends one wait of d, once a caller waits.
func (c *manualClock) fire(d time.Duration) { c.ch(d) <- time.Time{} }

// guard fails a test whose call does not return within a minute: a bound,
// never a synchronisation.
func guard[T any](t *testing.T, ch <-chan T) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(time.Minute):
		t.Fatal("the call did not return")
	}
	var zero T
	return zero
}

type runResult struct {
	res Result
	err error
}

func dial(t *testing.T, s *testServer, c *Client) Session {
	t.Helper()
	var calls atomic.Int32
	sess, err := c.Dial(context.Background(), s.target(sha256Pin(s.hostKey)), authFor(&calls))
	if err != nil {
		t.Fatalf("Dial: %v", err)
	}
	t.Cleanup(func() { _ = sess.Close() })
	return sess
}

func runAsync(ctx context.Context, sess Session, step, line string, stdin *strings.Reader) <-chan runResult {
	out := make(chan runResult, 1)
	go func() {
		var in = stdin
		var res Result
		var err error
		if in == nil {
			res, err = sess.Run(ctx, step, line, nil)
		} else {
			res, err = sess.Run(ctx, step, line, in)
		}
		out <- runResult{res, err}
	}()
	return out
}

func TestRunDeliversStdinAndExitStatus(t *testing.T) {
	s := newTestServer(t, serverOptions{})
	sess := dial(t, s, &Client{})
	secret := strings.Repeat("s3cr3t-", 100000) // 700 kB, more than one window
	res, err := sess.Run(context.Background(), "deliver", "count", strings.NewReader(secret))
	if err != nil || res.Exit != 0 || string(res.Stdout) != "700000" || s.stdinLen.Load() != 700000 {
		t.Fatalf("Run(count) = %q exit %d, %v; server read %d bytes", res.Stdout, res.Exit, err, s.stdinLen.Load())
	}
	res, err = sess.Run(context.Background(), "fail", "exit 3", nil)
	if err != nil || res.Exit != 3 {
		t.Fatalf("Run(exit 3) = %+v, %v; want exit 3 and no error", res, err)
	}
	res, err = sess.Run(context.Background(), "unknown", "nosuch x", nil)
	if err != nil || res.Exit != 127 || !strings.Contains(string(res.Stderr), "not found") {
		t.Fatalf("Run(nosuch) = %+v, %v", res, err)
	}
	if n := s.envs.Load(); n != 0 {
		t.Errorf("server got %d env or pty requests, want none", n)
	}
}

func TestRunErrorsNameTheStepNotTheLine(t *testing.T) {
	s := newTestServer(t, serverOptions{})
	sess := dial(t, s, &Client{})
	_, err := sess.Run(context.Background(), "write config", "refuse LINE-SENTINEL", strings.NewReader("STDIN-SENTINEL"))
	if !adapter.Is(err, adapter.Transient) || !strings.Contains(err.Error(), `"write config"`) {
		t.Fatalf("Run(refused) = %v, want Transient naming the step", err)
	}
	if strings.Contains(err.Error(), "SENTINEL") {
		t.Fatalf("error %q carries the command line or stdin", err)
	}
}

func TestRunCapsOutput(t *testing.T) {
	s := newTestServer(t, serverOptions{})
	sess := dial(t, s, &Client{MaxOutput: 1024})
	res, err := sess.Run(context.Background(), "flood", "flood 20000", nil) // 160 kB
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Stdout) != 1024 || !res.Truncated || !bytes.HasSuffix(res.Stdout, []byte("0019999\n")) {
		t.Fatalf("Stdout is %d bytes (truncated %v) ending %q; want the last 1024 bytes", len(res.Stdout), res.Truncated, res.Stdout[max(0, len(res.Stdout)-16):])
	}
	res, err = sess.Run(context.Background(), "small", "flood 2", nil)
	if err != nil || res.Truncated || string(res.Stdout) != "0000000\n0000001\n" {
		t.Fatalf("small output = %q (truncated %v), %v", res.Stdout, res.Truncated, err)
	}
}

func TestRunIsBoundedByTheCommandTimeout(t *testing.T) {
	s := newTestServer(t, serverOptions{})
	clock := &manualClock{}
	sess := dial(t, s, &Client{Clock: clock, CommandTimeout: 7 * time.Minute, KeepaliveInterval: time.Hour})
	out := runAsync(context.Background(), sess, "wait for it", "hang", nil)
	if line := guard(t, s.started); line != "hang" {
		t.Fatalf("started %q", line)
	}
	clock.fire(7 * time.Minute)
	r := guard(t, out)
	if !adapter.Is(r.err, adapter.Transient) || !strings.Contains(r.err.Error(), "did not finish within 7m0s") {
		t.Fatalf("Run(hang) = %v, want Transient naming the bound", r.err)
	}
	// The session was closed, so the connection still serves commands.
	if res, err := sess.Run(context.Background(), "greet", "echo hi", nil); err != nil || res.Exit != 0 {
		t.Fatalf("Run after a timeout = %+v, %v", res, err)
	}
}

func TestRunReturnsOnCancel(t *testing.T) {
	s := newTestServer(t, serverOptions{})
	sess := dial(t, s, &Client{KeepaliveInterval: time.Hour})
	ctx, cancel := context.WithCancel(context.Background())
	out := runAsync(ctx, sess, "wait for it", "hang", nil)
	guard(t, s.started)
	cancel()
	r := guard(t, out)
	if !adapter.Is(r.err, adapter.Transient) || !adapter.Canceled(r.err) {
		t.Fatalf("Run after cancel = %v, want Transient carrying the cancellation", r.err)
	}
}

// A peer that stops answering (a reset machine sends no FIN) is found by
// keepalives and the command fails as a dropped connection.
func TestKeepaliveDetectsASilentPeer(t *testing.T) {
	s := newTestServer(t, serverOptions{})
	sess := dial(t, s, &Client{KeepaliveInterval: 10 * time.Millisecond, KeepaliveMissed: 3})
	out := runAsync(context.Background(), sess, "install", "freeze", strings.NewReader("STDIN-SENTINEL"))
	guard(t, s.started)
	r := guard(t, out)
	if !errors.Is(r.err, ErrDropped) || !adapter.Is(r.err, adapter.Transient) || !strings.Contains(r.err.Error(), "keepalives") {
		t.Fatalf("Run on a silent peer = %v, want Transient ErrDropped naming the keepalives", r.err)
	}
	if strings.Contains(r.err.Error(), "SENTINEL") {
		t.Fatalf("error %q carries stdin", r.err)
	}
	if _, err := sess.Run(context.Background(), "next", "echo hi", nil); !errors.Is(err, ErrDropped) {
		t.Fatalf("Run on a dead connection = %v, want ErrDropped", err)
	}
}

// A live peer answers keepalives, and the connection lives on.
func TestKeepaliveKeepsALivePeer(t *testing.T) {
	s := newTestServer(t, serverOptions{})
	sess := dial(t, s, &Client{KeepaliveInterval: 20 * time.Millisecond, KeepaliveMissed: 5})
	out := runAsync(context.Background(), sess, "wait for it", "hang", nil)
	guard(t, s.started)
	for range 10 {
		select {
		case r := <-out:
			t.Fatalf("Run ended while keepalives were answered: %v", r.err)
		case <-s.keepalives:
		}
	}
	if res, err := sess.Run(context.Background(), "greet", "echo hi", nil); err != nil || res.Exit != 0 {
		t.Fatalf("Run beside keepalives = %+v, %v", res, err)
	}
}

// A runaway command costs at most twice the cap, whatever it writes.
func TestTailKeepsMemoryBounded(t *testing.T) {
	tl := &tail{max: 100}
	chunk := bytes.Repeat([]byte("x"), 30)
	for range 1000 {
		_, _ = tl.Write(chunk)
		if len(tl.buf) > 2*tl.max {
			t.Fatalf("tail holds %d bytes, want at most %d", len(tl.buf), 2*tl.max)
		}
	}
	_, _ = tl.Write([]byte("end"))
	if got := tl.bytes(); len(got) != 100 || !bytes.HasSuffix(got, []byte("xend")) || !tl.cut {
		t.Fatalf("tail = %q (cut %v)", got, tl.cut)
	}
}

// Logs name the step and the exit, never the line or stdin.
func TestRunLogsNoLineNorStdin(t *testing.T) {
	s := newTestServer(t, serverOptions{})
	log := &adaptertest.Log{}
	sess := dial(t, s, &Client{Log: log})
	if _, err := sess.Run(context.Background(), "deliver file 0", "count", strings.NewReader("STDIN-SENTINEL")); err != nil {
		t.Fatal(err)
	}
	if _, err := sess.Run(context.Background(), "probe", "nosuch LINE-SENTINEL", nil); err != nil {
		t.Fatal(err)
	}
	all := log.Text()
	if !strings.Contains(all, "deliver file 0") || !strings.Contains(all, "exit:127") {
		t.Fatalf("log %q does not name the steps and exits: the sentinel check would pass vacuously", all)
	}
	if strings.Contains(all, "SENTINEL") {
		t.Fatalf("log %q carries a command line or stdin", all)
	}
}
