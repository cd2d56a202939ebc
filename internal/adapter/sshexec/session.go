package sshexec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"sync"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Session is one logged-in connection; each Run is one exec request on it.
type Session interface {
	// Run runs line (a command of the SSH command protocol) with stdin (nil
	// for none) and returns its output and exit status. A command that ran
	// and failed is a Result with a non-zero Exit and no error; errors are
	// for what kept it from finishing (cancel, timeout, a dropped
	// connection: Transient). step names the command in errors and logs,
	// which never carry the line or stdin.
	Run(ctx context.Context, step, line string, stdin io.Reader) (Result, error)
	Close() error
}

// Result is what a finished command returned.
type Result struct {
	Stdout, Stderr []byte
	Exit           int
	// Truncated says that more output came than MaxOutput: Stdout and
	// Stderr then hold its last MaxOutput bytes each.
	Truncated bool
}

// conn is a Session over one ssh.Client, watched by keepalives.
type conn struct {
	c      *Client
	target Target
	client *ssh.Client
	clock  adapter.Clock
	log    adapter.Logger

	closed    chan struct{}
	closeOnce sync.Once
	mu        sync.Mutex
	reason    string // why the connection died, for errors
}

func (c *Client) newConn(t Target, client *ssh.Client) *conn {
	s := &conn{c: c, target: t, client: client, closed: make(chan struct{}),
		clock: orDefault[adapter.Clock](c.Clock, adapter.RealClock{}),
		log:   orDefault[adapter.Logger](c.Log, adapter.NopLogger{})}
	go func() {
		_ = client.Wait()
		s.die("the connection closed")
	}()
	go s.keepalive()
	return s
}

// die closes the connection once, remembering the first reason.
func (s *conn) die(reason string) {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.reason = reason
		s.mu.Unlock()
		close(s.closed)
		_ = s.client.Close()
	})
}

func (s *conn) dropped(step string, cause error) error {
	s.mu.Lock()
	reason := s.reason
	s.mu.Unlock()
	if reason == "" {
		reason = "the connection closed"
	}
	return transient(ErrDropped, cause, "the SSH connection to %s dropped during step %q (%s); run again to continue", s.target.addr(), step, reason)
}

// Close implements Session.
func (s *conn) Close() error {
	s.die("closed by the caller")
	return nil
}

// keepalive asks the server for an answer every interval; a connection
// that leaves KeepaliveMissed of them unanswered is dead even if TCP has
// not noticed (a machine that was reset keeps no socket to send a reset
// from), and is closed, which ends every command on it.
func (s *conn) keepalive() {
	interval := orDefault(s.c.KeepaliveInterval, DefaultKeepaliveInterval)
	limit := orDefault(s.c.KeepaliveMissed, DefaultKeepaliveMissed)
	var pending chan error
	missed := 0
	for {
		select {
		case <-s.closed:
			return
		case <-s.clock.After(interval):
		}
		if pending != nil {
			select {
			case err := <-pending:
				if err != nil {
					s.die("a keepalive failed")
					return
				}
				pending, missed = nil, 0
			default:
				missed++
			}
		}
		if missed >= limit {
			s.die(fmt.Sprintf("no answer to %d keepalives sent %s apart", limit, interval))
			return
		}
		if pending == nil {
			ch := make(chan error, 1)
			pending = ch
			go func() {
				// Any answer, even a refusal, proves the peer alive.
				_, _, err := s.client.SendRequest("keepalive@openssh.com", true, nil)
				ch <- err
			}()
		}
	}
}

// Run implements Session.
func (s *conn) Run(ctx context.Context, step, line string, stdin io.Reader) (Result, error) {
	start := s.clock.Now()
	select {
	case <-s.closed:
		return Result{}, s.dropped(step, nil)
	default:
	}
	sess, err := s.client.NewSession()
	if err != nil {
		return Result{}, s.dropped(step, err)
	}
	limit := orDefault(s.c.MaxOutput, DefaultMaxOutput)
	stdout, stderr := &tail{max: limit}, &tail{max: limit}
	sess.Stdout, sess.Stderr = stdout, stderr
	var in io.WriteCloser
	if stdin != nil {
		if in, err = sess.StdinPipe(); err != nil {
			_ = sess.Close()
			return Result{}, s.dropped(step, err)
		}
	}
	// No Setenv, no pty: the command sees nothing but its line and stdin.
	if err := sess.Start(line); err != nil {
		_ = sess.Close()
		// The library's message quotes the line; it is not kept.
		return Result{}, transient(ErrDropped, nil, "the host at %s refused to run step %q", s.target.addr(), step)
	}
	fed := make(chan feedResult, 1)
	if in != nil {
		go func() {
			n, err := io.Copy(in, stdin)
			_ = in.Close()
			fed <- feedResult{n, err}
		}()
	} else {
		fed <- feedResult{}
	}
	done := make(chan error, 1)
	go func() { done <- sess.Wait() }()

	timeout := orDefault(s.c.CommandTimeout, DefaultCommandTimeout)
	select {
	case err = <-done:
	case <-ctx.Done():
		go sess.Close()
		return Result{}, transient(ErrDropped, ctx.Err(), "step %q on %s was canceled before it finished", step, s.target.addr())
	case <-s.clock.After(timeout):
		go sess.Close()
		return Result{}, transient(ErrDropped, nil, "step %q on %s did not finish within %s", step, s.target.addr(), timeout)
	case <-s.closed:
		return Result{}, s.dropped(step, nil)
	}
	// The command ended; closing the channel also ends a stdin copy that
	// the command stopped reading.
	_ = sess.Close()
	feed := <-fed
	res := Result{Stdout: stdout.bytes(), Stderr: stderr.bytes()}
	res.Truncated = stdout.cut || stderr.cut
	var exit *ssh.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		res.Exit = exit.ExitStatus()
	default:
		return Result{}, s.dropped(step, err)
	}
	if feed.err != nil && res.Exit == 0 {
		return Result{}, transient(ErrDropped, feed.err, "step %q on %s: stdin was not fully delivered (%d bytes sent)", step, s.target.addr(), feed.n)
	}
	s.log.Debug(ctx, "ssh command", map[string]any{
		"host": s.target.Host, "port": strconv.Itoa(s.target.Port), "step": step,
		"exit": res.Exit, "stdin_bytes": feed.n, "duration_ms": s.clock.Now().Sub(start) / time.Millisecond,
	})
	return res, nil
}

type feedResult struct {
	n   int64
	err error
}
