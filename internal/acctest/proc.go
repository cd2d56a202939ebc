package acctest

import (
	"bytes"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Proc is a terraform command running in the background, in a process group
// of its own with the provider plugins it starts, so a test can kill it the
// way an OOM killer, a CI runner's hard timeout or a lost VM does: SIGKILL to
// everything at once, no clean-up.
type Proc struct {
	t    testing.TB
	cmd  *exec.Cmd
	out  *syncBuffer
	done chan struct{}
}

// Start runs terraform with args in the background.
func (c *CLI) Start(args ...string) *Proc {
	c.t.Helper()
	cmd := c.command(args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	out := &syncBuffer{}
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		c.t.Fatalf("start terraform %s: %v", strings.Join(args, " "), err)
	}
	p := &Proc{t: c.t, cmd: cmd, out: out, done: make(chan struct{})}
	go func() { _ = cmd.Wait(); close(p.done) }()
	c.t.Cleanup(p.Kill)
	return p
}

// Output is what the command printed so far.
func (p *Proc) Output() string { return p.out.String() }

// Exited reports whether the command has ended on its own (or was killed).
func (p *Proc) Exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// Kill sends SIGKILL to the command's whole process group and waits for it.
func (p *Proc) Kill() {
	if p.cmd.Process == nil {
		return
	}
	_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	<-p.done
}

// WaitFor polls cond until it holds, failing the test when the command ends
// first or after a minute. It is a condition wait, not a sleep: cond reads
// what the emulator or the command reports.
func (p *Proc) WaitFor(what string, cond func() bool) {
	p.t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if p.Exited() {
			p.t.Fatalf("terraform ended before %s:\n%s", what, p.Output())
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("timed out waiting for %s:\n%s", what, p.Output())
		}
		select {
		case <-p.done:
		case <-time.After(20 * time.Millisecond):
		}
	}
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// Interrupt sends SIGINT to the command's process group, as Ctrl-C in a
// terminal or a CI runner's soft cancel does: terraform stops starting
// work, tells its providers to stop, and waits for what runs to return.
func (p *Proc) Interrupt() {
	if p.cmd.Process != nil {
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGINT)
	}
}

// Wait waits for the command to end and returns what it printed and
// whether it ended with success.
func (p *Proc) Wait() (string, bool) {
	<-p.done
	return p.Output(), p.cmd.ProcessState != nil && p.cmd.ProcessState.Success()
}
