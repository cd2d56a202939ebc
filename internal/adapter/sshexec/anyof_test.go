package sshexec

import (
	"context"
	"sync/atomic"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// A pin to any of several keys (one per node of a cluster) admits a host
// whose key is among them, and refuses one whose key is not before the
// private key is resolved.
func TestDialAnyOf(t *testing.T) {
	s := newTestServer(t, serverOptions{})
	other, third := otherKey(t), otherKey(t)
	var calls atomic.Int32
	sess, err := (&Client{}).Dial(context.Background(), s.target(Pin{AnyOf: []string{ssh.FingerprintSHA256(other), ssh.FingerprintSHA256(s.hostKey)}}), authFor(&calls))
	if err != nil {
		t.Fatalf("a key among the pins: %v", err)
	}
	_ = sess.Close()
	calls.Store(0)
	_, err = (&Client{}).Dial(context.Background(), s.target(Pin{AnyOf: []string{ssh.FingerprintSHA256(other), ssh.FingerprintSHA256(third)}}), authFor(&calls))
	if !adapter.Is(err, adapter.AccessDenied) || calls.Load() != 0 {
		t.Errorf("a key not among the pins: %v, auth resolved %d times", err, calls.Load())
	}
}
