package sshexec

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"

	"golang.org/x/crypto/ssh"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// ErrUnreachable marks a Transient failure where nothing answered SSH at
// the address: refused, timed out, or a connection that closed before the
// key exchange ended. A machine that is still booting looks like this, so
// the bootstrap waits on it; everything else it retries as Transient.
var ErrUnreachable = errors.New("nothing answers on SSH at the address yet")

// ErrDropped marks a Transient failure of an established connection: it
// closed, or stopped answering keepalives. Whatever ran may or may not have
// finished; the caller reconnects and looks at the machine.
var ErrDropped = errors.New("the SSH connection dropped")

// transient builds a Transient error that wraps a sentinel and its cause
// for errors.Is; neither is printed, since a cause may echo a command line.
func transient(sentinel, cause error, format string, args ...any) error {
	e := adapter.Errorf(adapter.Transient, format, args...)
	e.Err = errors.Join(sentinel, cause)
	return e
}

// handshake records what happened during one key exchange and login, so
// the error that x/crypto/ssh returns can be told apart without reading
// its text wherever the record suffices.
type handshake struct {
	pin      checkedPin
	offered  *HostKey
	passed   bool  // the host key matched the pin
	authUsed bool  // the Auth callback ran
	authErr  error // the Auth callback's own failure
	// noKeyOfType: the host offers no key of the pinned type at all.
	noKeyOfType bool
}

// classifyHandshake maps a failed dial or handshake onto a code. It is the
// one place SSH connection errors become adapter errors.
func classifyHandshake(ctx context.Context, addr string, h *handshake, err error) error {
	var neg *ssh.AlgorithmNegotiationError
	_ = errors.As(err, &neg)
	switch {
	case h.authErr != nil:
		// The credential could not be had (a secret reference that does
		// not resolve, a key that does not parse): its own error says so.
		return h.authErr
	case h.offered != nil && !h.passed:
		return mismatch(addr, h.pin, *h.offered)
	case h.noKeyOfType:
		e := adapter.Errorf(adapter.AccessDenied,
			"the host at %s offers no %s host key (it offers %s), so it cannot be the host whose key was announced as %s; nothing was sent to it. %s",
			addr, h.pin.typ, strings.Join(neg.RequestedAlgorithms, ", "), h.pin.expected(), mismatchAdvice)
		e.Err = adapter.ErrHostKeyMismatch
		return e
	case ctx.Err() != nil:
		return transient(ErrUnreachable, ctx.Err(), "SSH to %s did not connect before the call was canceled or ran out of time", addr)
	case h.passed && strings.Contains(err.Error(), "unable to authenticate"):
		return adapter.Errorf(adapter.AccessDenied,
			"the host at %s refused the SSH login with the private key that the account's ssh_private_key setting names; check that it is the private half of the public key the account's ssh_key fingerprint names (the key the backend installs for root)",
			addr).WithField("ssh_private_key")
	case h.passed:
		return transient(ErrDropped, err, "the SSH connection to %s dropped during login", addr)
	}
	return transient(ErrUnreachable, err, "nothing answers SSH at %s yet (%s)", addr, netReason(err))
}

const mismatchAdvice = "If the machine was reinstalled or its rescue system activated again, run apply again so the key is read anew from the backend; otherwise another host answers at this address: check the machine's address."

// mismatch is the error for a host whose key is not the pinned one.
func mismatch(addr string, pin checkedPin, offered HostKey) error {
	e := adapter.Errorf(adapter.AccessDenied,
		"the host key at %s does not match its pin: expected %s, offered %s; nothing was sent to this host. %s",
		addr, pin.expected(), pin.offered(offered), mismatchAdvice)
	e.Err = adapter.ErrHostKeyMismatch
	return e
}

// netReason names why a connection failed in a few words, from the error's
// type: network errors carry no command line or data, but are long.
func netReason(err error) string {
	var op *net.OpError
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return "timed out"
	case errors.As(err, &op) && op.Op == "dial":
		if strings.Contains(op.Err.Error(), "refused") {
			return "connection refused"
		}
		return fmt.Sprintf("dial: %v", op.Err)
	case errors.Is(err, net.ErrClosed):
		return "connection closed"
	}
	return "the connection closed during the SSH handshake"
}
