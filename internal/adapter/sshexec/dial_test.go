package sshexec

import (
	"context"
	"errors"
	"net"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

func sha256Pin(k ssh.PublicKey) Pin {
	return Pin{Type: keyTypes[k.Type()], Fingerprint: ssh.FingerprintSHA256(k)}
}

func md5Pin(k ssh.PublicKey) Pin {
	return Pin{Type: keyTypes[k.Type()], Fingerprint: strings.ToUpper(ssh.FingerprintLegacyMD5(k))}
}

func otherKey(t *testing.T) ssh.PublicKey {
	s := newTestServer(t, serverOptions{})
	return s.hostKey
}

func TestDialAcceptsThePinnedKey(t *testing.T) {
	s := newTestServer(t, serverOptions{})
	pins := map[string]Pin{
		"sha256":     sha256Pin(s.hostKey),
		"md5":        md5Pin(s.hostKey),
		"public key": {PublicKey: string(ssh.MarshalAuthorizedKey(s.hostKey))},
	}
	for name, pin := range pins {
		t.Run(name, func(t *testing.T) {
			var calls atomic.Int32
			sess, err := (&Client{}).Dial(context.Background(), s.target(pin), authFor(&calls))
			if err != nil {
				t.Fatalf("Dial: %v", err)
			}
			defer sess.Close()
			res, err := sess.Run(context.Background(), "greet", "echo hi", nil)
			if err != nil || string(res.Stdout) != "hi\n" || string(res.Stderr) != "note\n" || res.Exit != 0 {
				t.Fatalf("Run = %+v, %v", res, err)
			}
			if calls.Load() != 1 {
				t.Errorf("Auth called %d times, want 1", calls.Load())
			}
		})
	}
	if n := s.envs.Load(); n != 0 {
		t.Errorf("server got %d env or pty requests, want none", n)
	}
}

// A host that answers with another key must see no login attempt at all,
// and the private key must not even be resolved.
func TestDialRefusesAnotherKeyBeforeAuth(t *testing.T) {
	s := newTestServer(t, serverOptions{})
	other := otherKey(t)
	cases := []struct {
		name string
		pin  Pin
		want []string
	}{
		{"sha256", sha256Pin(other), []string{ssh.FingerprintSHA256(other), ssh.FingerprintSHA256(s.hostKey)}},
		{"md5", md5Pin(other), []string{strings.ToUpper(ssh.FingerprintLegacyMD5(other)), ssh.FingerprintSHA256(s.hostKey), "MD5 " + ssh.FingerprintLegacyMD5(s.hostKey)}},
		{"public key", Pin{PublicKey: string(ssh.MarshalAuthorizedKey(other))}, []string{ssh.FingerprintSHA256(other), ssh.FingerprintSHA256(s.hostKey)}},
		{"type not offered", Pin{Type: "RSA", Fingerprint: "SHA256:AAAA"}, []string{"offers no RSA host key", "SHA256:AAAA"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var calls atomic.Int32
			_, err := (&Client{}).Dial(context.Background(), s.target(tc.pin), authFor(&calls))
			if !adapter.Is(err, adapter.AccessDenied) || !adapter.HostKeyMismatch(err) {
				t.Fatalf("Dial error = %v, want AccessDenied for a host key mismatch", err)
			}
			<-s.handshakes // the server's side of this handshake is over
			for _, w := range append(tc.want, "127.0.0.1:"+strconv.Itoa(s.port), "nothing was sent", "run apply again") {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not name %q", err, w)
				}
			}
			if calls.Load() != 0 || s.auths.Load() != 0 {
				t.Errorf("Auth called %d times, server saw %d auth attempts; want 0 and 0", calls.Load(), s.auths.Load())
			}
		})
	}
}

func TestDialLoginRefused(t *testing.T) {
	s := newTestServer(t, serverOptions{rejectLogin: true})
	var calls atomic.Int32
	_, err := (&Client{}).Dial(context.Background(), s.target(sha256Pin(s.hostKey)), authFor(&calls))
	if !adapter.Is(err, adapter.AccessDenied) || adapter.FieldOf(err) != "ssh_private_key" {
		t.Fatalf("Dial error = %v (field %q), want AccessDenied on ssh_private_key", err, adapter.FieldOf(err))
	}
	if adapter.HostKeyMismatch(err) {
		t.Errorf("a refused login reads as a host key mismatch: %v", err)
	}
	for _, w := range []string{"ssh_private_key", "ssh_key", "127.0.0.1"} {
		if !strings.Contains(err.Error(), w) {
			t.Errorf("error %q does not name %q", err, w)
		}
	}
}

func TestDialAuthFailureKeepsItsCode(t *testing.T) {
	s := newTestServer(t, serverOptions{})
	unresolved := adapter.Errorf(adapter.InvalidConfig, "secret reference env://KEY: not set")
	_, err := (&Client{}).Dial(context.Background(), s.target(sha256Pin(s.hostKey)),
		func(context.Context) ([]byte, error) { return nil, unresolved })
	if !errors.Is(err, unresolved) {
		t.Fatalf("Dial error = %v, want the Auth callback's own error", err)
	}
	const sentinel = "NOT-A-KEY-SENTINEL"
	_, err = (&Client{}).Dial(context.Background(), s.target(sha256Pin(s.hostKey)),
		func(context.Context) ([]byte, error) { return []byte(sentinel), nil })
	if !adapter.Is(err, adapter.InvalidConfig) || strings.Contains(err.Error(), sentinel) {
		t.Fatalf("Dial error = %v, want InvalidConfig without the value", err)
	}
}

func TestDialUnreachable(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	_ = ln.Close()
	var calls atomic.Int32
	pin := Pin{Type: "ED25519", Fingerprint: "SHA256:AAAA"}
	_, err = (&Client{}).Dial(context.Background(), Target{Host: "127.0.0.1", Port: port, User: "root", Pin: pin}, authFor(&calls))
	if !adapter.Is(err, adapter.Transient) || !errors.Is(err, ErrUnreachable) {
		t.Fatalf("Dial error = %v, want Transient ErrUnreachable", err)
	}
	// A listener that accepts and never speaks is unreachable too, within
	// the dial bound.
	silent, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	c := &Client{DialTimeout: 50 * time.Millisecond}
	_, err = c.Dial(context.Background(), Target{Host: "127.0.0.1", Port: silent.Addr().(*net.TCPAddr).Port, Pin: pin}, authFor(&calls))
	if !errors.Is(err, ErrUnreachable) || calls.Load() != 0 {
		t.Fatalf("Dial to a silent listener = %v (Auth calls %d), want ErrUnreachable", err, calls.Load())
	}
}

func TestDialRefusesNoPin(t *testing.T) {
	var calls atomic.Int32
	for _, pin := range []Pin{{}, {Type: "DSA", Fingerprint: "SHA256:x"}, {Type: "ED25519", Fingerprint: "abc"}, {PublicKey: "not a key"}} {
		_, err := (&Client{}).Dial(context.Background(), Target{Host: "127.0.0.1", Port: 1, Pin: pin}, authFor(&calls))
		if !adapter.Is(err, adapter.InvalidInput) {
			t.Errorf("pin %+v: error = %v, want InvalidInput", pin, err)
		}
	}
}

func TestProbePin(t *testing.T) {
	s := newTestServer(t, serverOptions{})
	c := &Client{}
	ok, offered, err := c.ProbePin(context.Background(), s.target(md5Pin(s.hostKey)))
	if err != nil || !ok || offered.SHA256 != ssh.FingerprintSHA256(s.hostKey) {
		t.Fatalf("ProbePin(right pin) = %v, %+v, %v", ok, offered, err)
	}
	ok, offered, err = c.ProbePin(context.Background(), s.target(sha256Pin(otherKey(t))))
	if err != nil || ok || offered.AuthorizedKey == "" {
		t.Fatalf("ProbePin(other pin) = %v, %+v, %v; want no match and the offered key", ok, offered, err)
	}
	ok, _, err = c.ProbePin(context.Background(), s.target(Pin{Type: "RSA", Fingerprint: "SHA256:AAAA"}))
	if err != nil || ok {
		t.Fatalf("ProbePin(type not offered) = %v, %v; want no match, no error", ok, err)
	}
	for range 3 {
		<-s.handshakes
	}
	if n := s.auths.Load(); n != 0 {
		t.Errorf("server saw %d auth attempts from probes, want 0", n)
	}
}
