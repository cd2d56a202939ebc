package sshexec

import (
	"context"
	"errors"
	"net"
	"strconv"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Target is where to connect and which host key to expect there.
type Target struct {
	Host string
	Port int
	User string
	Pin  Pin
}

func (t Target) addr() string { return net.JoinHostPort(t.Host, strconv.Itoa(t.Port)) }

// Auth returns the private key (OpenSSH PEM) to log in with. It is called
// only after the host key matched its pin, so the secret is resolved for
// the right host only, and only then; the bytes are not kept.
type Auth func(ctx context.Context) ([]byte, error)

// Dialer opens pinned SSH sessions; Client is the real one, tests of the
// bootstrap use a fake.
type Dialer interface {
	// Dial connects, checks the host key against t.Pin, then logs in
	// with the key auth returns.
	Dial(ctx context.Context, t Target, auth Auth) (Session, error)
	// ProbePin runs the key exchange only, sends no credential, and says
	// whether the host's key matches t.Pin: it tells "this address
	// answers with the announced key" from "something else answers". A
	// host that offers no key of the pinned type does not match.
	ProbePin(ctx context.Context, t Target) (matches bool, offered HostKey, err error)
}

// Client dials with x/crypto/ssh. Zero fields take the defaults below.
type Client struct {
	// DialTimeout bounds the TCP connect, key exchange and login.
	DialTimeout time.Duration
	// CommandTimeout bounds each command unless the context is shorter.
	CommandTimeout time.Duration
	// KeepaliveInterval is how often a keepalive@openssh.com request goes
	// out; after KeepaliveMissed intervals without an answer the connection
	// is declared dead and closed.
	KeepaliveInterval time.Duration
	KeepaliveMissed   int
	// MaxOutput caps what is kept of each of stdout and stderr.
	MaxOutput int
	Clock     adapter.Clock
	Log       adapter.Logger
	// DialContext opens the TCP connection; nil uses a net.Dialer.
	DialContext func(ctx context.Context, network, addr string) (net.Conn, error)
}

// The defaults: long enough for a slow rescue system, short enough that a
// dead machine is noticed within a minute.
const (
	DefaultDialTimeout       = 20 * time.Second
	DefaultCommandTimeout    = 2 * time.Minute
	DefaultKeepaliveInterval = 10 * time.Second
	DefaultKeepaliveMissed   = 3
	DefaultMaxOutput         = 1 << 20
)

func orDefault[T comparable](v, d T) T {
	var zero T
	if v == zero {
		return d
	}
	return v
}

var _ Dialer = (*Client)(nil)

// Dial implements Dialer.
func (c *Client) Dial(ctx context.Context, t Target, auth Auth) (Session, error) {
	pin, err := checkPin(t.Pin)
	if err != nil {
		return nil, err
	}
	if auth == nil {
		return nil, adapter.Errorf(adapter.InvalidInput, "no private key to log in to %s with; set the account's ssh_private_key", t.addr())
	}
	h := &handshake{pin: pin}
	config := &ssh.ClientConfig{
		User:              t.User,
		HostKeyCallback:   h.check,
		HostKeyAlgorithms: pin.algorithms,
		Auth:              []ssh.AuthMethod{ssh.PublicKeysCallback(h.signers(ctx, auth))},
	}
	sc, chans, reqs, err := c.handshake(ctx, t, h, config)
	if err != nil {
		return nil, err
	}
	return c.newConn(t, ssh.NewClient(sc, chans, reqs)), nil
}

// ProbePin implements Dialer.
func (c *Client) ProbePin(ctx context.Context, t Target) (bool, HostKey, error) {
	pin, err := checkPin(t.Pin)
	if err != nil {
		return false, HostKey{}, err
	}
	h := &handshake{pin: pin}
	config := &ssh.ClientConfig{
		User:              t.User,
		HostKeyAlgorithms: pin.algorithms,
		// Stop the handshake at the host key, whatever it is: a probe
		// never reaches the login.
		HostKeyCallback: func(_ string, _ net.Addr, k ssh.PublicKey) error {
			offered := hostKeyOf(k)
			h.offered, h.passed = &offered, pin.matches(k)
			return errProbed
		},
	}
	_, _, _, err = c.handshake(ctx, t, h, config)
	switch {
	case h.offered != nil:
		return h.passed, *h.offered, nil
	case h.noKeyOfType:
		return false, HostKey{}, nil
	}
	return false, HostKey{}, err
}

var errProbed = errors.New("probe: the host key was read")

// check is the HostKeyCallback of a Dial: the key is compared before the
// login starts, and a mismatch ends the handshake there.
func (h *handshake) check(_ string, _ net.Addr, k ssh.PublicKey) error {
	offered := hostKeyOf(k)
	h.offered = &offered
	if !h.pin.matches(k) {
		return errors.New("host key mismatch")
	}
	h.passed = true
	return nil
}

// signers resolves the private key when x/crypto/ssh asks for it, which it
// does only after check passed.
func (h *handshake) signers(ctx context.Context, auth Auth) func() ([]ssh.Signer, error) {
	return func() ([]ssh.Signer, error) {
		h.authUsed = true
		if !h.passed {
			// Unreachable by the protocol's order; kept so that a change
			// in the library cannot send the key to an unchecked host.
			h.authErr = adapter.Errorf(adapter.AccessDenied, "refusing to log in before the host key was checked")
			return nil, h.authErr
		}
		pem, err := auth(ctx)
		if err != nil {
			h.authErr = err
			return nil, err
		}
		signer, err := ssh.ParsePrivateKey(pem)
		clear(pem)
		if err != nil {
			h.authErr = privateKeyError(err)
			return nil, h.authErr
		}
		return []ssh.Signer{signer}, nil
	}
}

// privateKeyError never repeats the parser's message, which could quote
// the key.
func privateKeyError(err error) error {
	var missing *ssh.PassphraseMissingError
	if errors.As(err, &missing) {
		return adapter.Errorf(adapter.InvalidConfig, "the private key that ssh_private_key names is protected by a passphrase; give an unencrypted OpenSSH private key").WithField("ssh_private_key")
	}
	return adapter.Errorf(adapter.InvalidConfig, "the value that ssh_private_key names is not an OpenSSH private key (the value is not shown); give the PEM text of the key, \"-----BEGIN OPENSSH PRIVATE KEY-----…\"").WithField("ssh_private_key")
}

// handshake connects and runs the key exchange (and, for Dial, the login)
// within DialTimeout and ctx.
func (c *Client) handshake(ctx context.Context, t Target, h *handshake, config *ssh.ClientConfig) (ssh.Conn, <-chan ssh.NewChannel, <-chan *ssh.Request, error) {
	ctx, cancel := context.WithTimeout(ctx, orDefault(c.DialTimeout, DefaultDialTimeout))
	defer cancel()
	addr := t.addr()
	dial := c.DialContext
	if dial == nil {
		dial = (&net.Dialer{}).DialContext
	}
	nc, err := dial(ctx, "tcp", addr)
	if err != nil {
		return nil, nil, nil, classifyHandshake(ctx, addr, h, err)
	}
	// x/crypto/ssh knows no context: a deadline bounds a silent peer, and
	// closing the socket on cancel returns at once.
	if dl, ok := ctx.Deadline(); ok {
		_ = nc.SetDeadline(dl)
	}
	stop := context.AfterFunc(ctx, func() { _ = nc.Close() })
	sc, chans, reqs, err := ssh.NewClientConn(nc, addr, config)
	var neg *ssh.AlgorithmNegotiationError
	h.noKeyOfType = errors.As(err, &neg) && neg.What == "host key"
	if !stop() || err != nil {
		_ = nc.Close()
		if err == nil {
			err = ctx.Err()
			_ = sc.Close()
		}
		return nil, nil, nil, classifyHandshake(ctx, addr, h, err)
	}
	_ = nc.SetDeadline(time.Time{})
	return sc, chans, reqs, nil
}
