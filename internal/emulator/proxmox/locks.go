package proxmox

import (
	"fmt"
	"net/http"
	"sync"
	"time"
)

// lockFiles are PVE's /var/lock/qemu-server/lock-VMID.conf flocks: every
// config change takes its VM's for a moment, a clone takes its source's
// for the whole clone. A contended one is waited for up to the timeout.
type lockFiles struct {
	timeout time.Duration
	clock   Clock

	mu       sync.Mutex
	files    map[int]chan struct{}
	waits    int
	timeouts int
}

func newLockFiles(timeout time.Duration, clock Clock) *lockFiles {
	return &lockFiles{timeout: timeout, clock: clock, files: map[int]chan struct{}{}}
}

func (l *lockFiles) file(vmid int) chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	ch, ok := l.files[vmid]
	if !ok {
		ch = make(chan struct{}, 1)
		l.files[vmid] = ch
	}
	return ch
}

// lockTimeout is PVE's text for a lock file it waited for in vain.
func lockTimeout(vmid int) *apiError {
	return failf(http.StatusInternalServerError, "can't lock file '/var/lock/qemu-server/lock-%d.conf' - got timeout", vmid)
}

// acquire takes vmid's lock file, waiting up to the timeout; the returned
// function releases it.
func (l *lockFiles) acquire(vmid int) (func(), *apiError) {
	ch := l.file(vmid)
	release := func() { <-ch }
	select {
	case ch <- struct{}{}:
		return release, nil
	default:
	}
	l.mu.Lock()
	l.waits++
	l.mu.Unlock()
	select {
	case ch <- struct{}{}:
		return release, nil
	case <-l.clock.After(l.timeout):
		l.mu.Lock()
		l.timeouts++
		l.mu.Unlock()
		return nil, lockTimeout(vmid)
	}
}

// LockWaits counts the lock-file acquisitions that found the file held
// and had to wait, whether or not they got it in time.
func (e *Emulator) LockWaits() int {
	e.locks.mu.Lock()
	defer e.locks.mu.Unlock()
	return e.locks.waits
}

// LockTimeouts counts the waits that ended in PVE's lock-timeout error.
func (e *Emulator) LockTimeouts() int {
	e.locks.mu.Lock()
	defer e.locks.mu.Unlock()
	return e.locks.timeouts
}

// HoldLockFile takes vmid's lock file as another process on the node
// would (a backup, a clone someone started in the GUI) until the returned
// function is called: requests needing it wait LockTimeout and fail.
func (e *Emulator) HoldLockFile(vmid int) (release func(), err error) {
	ch := e.locks.file(vmid)
	select {
	case ch <- struct{}{}:
	default:
		return nil, fmt.Errorf("proxmox emulator: lock file of %d is held already", vmid)
	}
	var once sync.Once
	return func() { once.Do(func() { <-ch }) }, nil
}

// SetConfigLock sets the config lock of vmid ("backup", "migrate",
// "clone", …; "" clears it), as another task would: writes then answer
// "VM NNN is locked (LOCK)".
func (e *Emulator) SetConfigLock(vmid int, lock string) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	v, ok := e.vms[vmid]
	if !ok {
		return fmt.Errorf("proxmox emulator: no VM %d", vmid)
	}
	v.lock = lock
	return nil
}
