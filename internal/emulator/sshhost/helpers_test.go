package sshhost

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/metal"
)

// bound is how long a test waits for an event before it fails: a guard
// against hanging, never a synchronisation.
const bound = time.Minute

// fakeClock hands every After to the test, which fires it by hand.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers chan fakeTimer
}

type fakeTimer struct {
	d  time.Duration
	ch chan time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC), timers: make(chan fakeTimer, 64)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) After(d time.Duration) <-chan time.Time {
	t := fakeTimer{d: d, ch: make(chan time.Time, 1)}
	c.timers <- t
	return t.ch
}

// harness is a farm on a fake clock with its events on channels.
type harness struct {
	t     *testing.T
	farm  *Farm
	clock *fakeClock
	boots chan string
	done  chan Command
	key   ssh.Signer // the account's key, armed for rescue
	pub   string
}

const (
	bootDelay    = 7 * time.Second
	installDelay = 11 * time.Second
)

func newHarness(t *testing.T, opts Options) *harness {
	t.Helper()
	h := &harness{t: t, clock: newFakeClock(), boots: make(chan string, 16), done: make(chan Command, 256)}
	opts.Clock = h.clock
	opts.BootDelay, opts.InstallDuration = bootDelay, installDelay
	opts.OnBoot = func(_ int, booted string) { h.boots <- booted }
	opts.OnCommandDone = func(c Command) { h.done <- c }
	f, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	h.farm = f
	h.key, h.pub = newKey(t)
	return h
}

func newKey(t *testing.T) (ssh.Signer, string) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s, strings.TrimSpace(string(ssh.MarshalAuthorizedKey(s.PublicKey())))
}

func (h *harness) add(n int, disks ...string) *Machine {
	h.t.Helper()
	if len(disks) == 0 {
		disks = []string{"nvme", "nvme"}
	}
	mm, err := h.farm.Add(n, metal.Spec{Disks: disks, UUID: "4c4c4544-0031-3310-8052-b2c04f4e3132"})
	if err != nil {
		h.t.Fatal(err)
	}
	return mm.(*Machine)
}

// fire fires the next timer, which must last d.
func (h *harness) fire(d time.Duration) {
	h.t.Helper()
	h.await(d).ch <- h.clock.Now()
}

// await waits until the next timer started, which must last d, and
// leaves it pending.
func (h *harness) await(d time.Duration) fakeTimer {
	h.t.Helper()
	select {
	case tm := <-h.clock.timers:
		if tm.d != d {
			h.t.Fatalf("next timer lasts %v, want %v", tm.d, d)
		}
		return tm
	case <-time.After(bound):
		h.t.Fatalf("no timer of %v started", d)
	}
	return fakeTimer{}
}

// noTimer fails when a timer is pending.
func (h *harness) noTimer() {
	h.t.Helper()
	select {
	case tm := <-h.clock.timers:
		h.t.Fatalf("a timer of %v started", tm.d)
	default:
	}
}

func (h *harness) booted(want string) {
	h.t.Helper()
	select {
	case got := <-h.boots:
		if got != want {
			h.t.Fatalf("booted %q, want %q", got, want)
		}
	case <-time.After(bound):
		h.t.Fatalf("no boot into %s", want)
	}
}

// commandDone waits for the next finished command whose line has prefix.
func (h *harness) commandDone(prefix string) Command {
	h.t.Helper()
	for {
		select {
		case c := <-h.done:
			if strings.HasPrefix(c.Line, prefix) {
				return c
			}
		case <-time.After(bound):
			h.t.Fatalf("no command %q ended", prefix)
		}
	}
}

// rescue arms and hard-resets m into rescue with the harness's key.
func (h *harness) rescue(m *Machine) {
	h.t.Helper()
	m.ArmRescue([]string{h.pub})
	if err := m.Reset("hw"); err != nil {
		h.t.Fatal(err)
	}
	h.fire(bootDelay)
	h.booted("rescue")
}

func (h *harness) dial(m *Machine, hostKey ssh.PublicKey) *ssh.Client {
	h.t.Helper()
	c, err := h.dialErr(m, hostKey, "root", h.key)
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { c.Close() })
	return c
}

func (h *harness) dialErr(m *Machine, hostKey ssh.PublicKey, user string, key ssh.Signer) (*ssh.Client, error) {
	return ssh.Dial("tcp", m.SSHAddr(), &ssh.ClientConfig{
		User: user, Auth: []ssh.AuthMethod{ssh.PublicKeys(key)},
		HostKeyCallback: ssh.FixedHostKey(hostKey), Timeout: bound,
	})
}

type result struct {
	out, err string
	status   int
}

// run runs one exec request; a session cut before its exit status fails
// the test unless the caller uses runErr.
func run(t *testing.T, c *ssh.Client, line, stdin string) result {
	t.Helper()
	r, err := runErr(c, line, stdin)
	if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	return r
}

func runErr(c *ssh.Client, line, stdin string) (result, error) {
	s, err := c.NewSession()
	if err != nil {
		return result{}, err
	}
	defer s.Close()
	var out, errb bytes.Buffer
	s.Stdout, s.Stderr = &out, &errb
	s.Stdin = strings.NewReader(stdin)
	err = s.Run(line)
	r := result{out: out.String(), err: errb.String()}
	var exit *ssh.ExitError
	if errors.As(err, &exit) {
		r.status = exit.ExitStatus()
		err = nil
	}
	return r, err
}
