// Package sshhost emulates the machines behind a dedicated-server API: each
// one answers on SSH with its rescue system or its installed system, as a
// real rented server does after a reset. A Farm implements metal.Farm, so
// the Robot emulator hands out its machines; tests and the standalone
// emulator drive faults through the Go API or the control handler.
//
// The SSH side is golang.org/x/crypto/ssh: public-key auth for root only,
// exec requests only, each line run by a small interpreter over an in-memory
// filesystem that understands exactly the command vocabulary the bootstrap
// uses (and answers anything else with exit 127, as sh does for a missing
// command). It imports the standard library, x/crypto/ssh,
// internal/emulator/clock and metal; never an adapter.
package sshhost

import (
	"crypto/rand"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/clock"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/metal"
)

// Clock is what boots and installs wait on. It has the shape of the
// adapter's injected clock, so a test's fake clock can step the farm too.
type Clock = clock.Clock

// DefaultInstallDuration is how long installimage runs unless the farm is
// told otherwise: longer than a boot, so a client that does not poll for
// the install's end is caught.
const DefaultInstallDuration = 200 * time.Millisecond

// Images are the installimage images every machine's rescue system offers
// under /root/images, named as Robot names them.
var Images = []string{
	"Ubuntu-2404-noble-amd64-base",
	"Ubuntu-2204-jammy-amd64-base",
	"Debian-1208-bookworm-amd64-base",
	"Debian-1300-trixie-amd64-base",
	"Rocky-95-amd64-base",
	"Alma-95-amd64-base",
}

// Options configure a Farm.
type Options struct {
	// BootDelay is how long a boot takes; 0 means metal.BootDelay.
	BootDelay time.Duration
	// InstallDuration is how long installimage runs; 0 means
	// DefaultInstallDuration.
	InstallDuration time.Duration
	// HTTPClient is what curl fetches with (only https, only loopback
	// hosts); nil means http.DefaultClient.
	HTTPClient *http.Client
	// Clock times boots and installs and stamps the records; nil is the
	// wall clock.
	Clock Clock
	// Images replaces Images when set.
	Images []string
	// Port is the SSH port every machine shares; 0 picks a free one.
	Port int
	// OnBoot, when set, is called each time a machine finished a boot,
	// with what it runs now ("rescue", "installed", "none") and once its
	// SSH server listens, so tests wait for boots on a channel.
	OnBoot func(number int, booted string)
	// OnCommandDone, when set, is called when an exec request's command
	// or work started by setsid -f ended, with its final record (Exit -1
	// when its session was cut).
	OnCommandDone func(Command)
}

// Farm is a set of emulated machines, each on its own loopback address
// 127.R.S.N of one random /24, all on one port.
type Farm struct {
	opts   Options
	clock  Clock
	prefix [3]byte
	port   int

	mu       sync.Mutex
	machines map[int]*Machine
	nextHost int
	closed   bool
	journal  journal
}

var _ metal.Farm = (*Farm)(nil)

// New makes an empty farm. It picks the /24 and, unless Options.Port says
// otherwise, the port, trying another /24 when the address is taken.
func New(opts Options) (*Farm, error) {
	if opts.BootDelay <= 0 {
		opts.BootDelay = metal.BootDelay
	}
	if opts.InstallDuration <= 0 {
		opts.InstallDuration = DefaultInstallDuration
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = http.DefaultClient
	}
	if len(opts.Images) == 0 {
		opts.Images = Images
	}
	f := &Farm{opts: opts, clock: opts.Clock, machines: map[int]*Machine{}, nextHost: 1}
	f.journal.onDone = opts.OnCommandDone
	if f.clock == nil {
		f.clock = clock.Wall{}
	}
	var lastErr error
	for range 32 {
		// 127.0.0.0/16 is where other loopback servers live; keep away.
		f.prefix = [3]byte{127, byte(1 + randInt(254)), byte(randInt(256))}
		ln, err := net.Listen("tcp", netip.AddrPortFrom(f.hostAddr(1), uint16(opts.Port)).String())
		if err != nil {
			lastErr = err
			if errors.Is(err, syscall.EADDRINUSE) {
				continue
			}
			return nil, fmt.Errorf("sshhost: listen on loopback: %w", err)
		}
		tcp, ok := ln.Addr().(*net.TCPAddr)
		ln.Close()
		if !ok {
			return nil, fmt.Errorf("sshhost: a tcp listener on %s has no TCP address", ln.Addr())
		}
		f.port = tcp.Port
		return f, nil
	}
	return nil, fmt.Errorf("sshhost: no free loopback /24 for port %d: %w", opts.Port, lastErr)
}

func randInt(n int64) int64 {
	v, err := rand.Int(rand.Reader, big.NewInt(n))
	if err != nil {
		panic(err)
	}
	return v.Int64()
}

func (f *Farm) hostAddr(n int) netip.Addr {
	return netip.AddrFrom4([4]byte{f.prefix[0], f.prefix[1], f.prefix[2], byte(n)})
}

// SSHPort is the port every machine listens on.
func (f *Farm) SSHPort() int { return f.port }

// Add makes machine number, powered on and booted from its empty disk
// (so it runs no system and nothing answers on SSH until it is reset into
// rescue). Its address is the next free one of the farm's /24.
func (f *Farm) Add(number int, spec metal.Spec) (metal.Machine, error) {
	m, err := f.add(number, spec)
	if err != nil {
		return nil, err
	}
	return m, nil
}

func (f *Farm) add(number int, spec metal.Spec) (*Machine, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nil, errors.New("sshhost: farm is closed")
	}
	if _, dup := f.machines[number]; dup {
		return nil, fmt.Errorf("sshhost: machine %d exists already", number)
	}
	for ; f.nextHost < 255; f.nextHost++ {
		addr := f.hostAddr(f.nextHost)
		ln, err := net.Listen("tcp", netip.AddrPortFrom(addr, uint16(f.port)).String())
		if err != nil {
			if errors.Is(err, syscall.EADDRINUSE) {
				continue
			}
			return nil, fmt.Errorf("sshhost: listen on %s: %w", addr, err)
		}
		ln.Close()
		f.nextHost++
		m, err := newMachine(f, number, spec, addr)
		if err != nil {
			return nil, err
		}
		f.machines[number] = m
		return m, nil
	}
	return nil, fmt.Errorf("sshhost: the farm's /24 %d.%d.%d.0 is full", f.prefix[0], f.prefix[1], f.prefix[2])
}

// Machine returns machine number, for tests and the control handler.
func (f *Farm) Machine(number int) (*Machine, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	m, ok := f.machines[number]
	return m, ok
}

// Machines returns every machine, by number.
func (f *Farm) Machines() []*Machine {
	f.mu.Lock()
	defer f.mu.Unlock()
	nums := make([]int, 0, len(f.machines))
	for n := range f.machines {
		nums = append(nums, n)
	}
	slices.Sort(nums)
	out := make([]*Machine, len(nums))
	for i, n := range nums {
		out[i] = f.machines[n]
	}
	return out
}

// Close powers every machine off and stops their SSH servers.
func (f *Farm) Close() error {
	f.mu.Lock()
	f.closed = true
	ms := make([]*Machine, 0, len(f.machines))
	for _, m := range f.machines {
		ms = append(ms, m)
	}
	f.mu.Unlock()
	for _, m := range ms {
		m.powerOff()
	}
	return nil
}
