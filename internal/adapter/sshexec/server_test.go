package sshexec

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/rsa"
	"encoding/binary"
	"encoding/pem"
	"fmt"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/crypto/ssh"
)

// testServer is an SSH server on 127.0.0.1 that counts what the client
// does (logins, env requests, keepalives) and runs a few fixed commands.
type testServer struct {
	t       *testing.T
	ln      net.Listener
	hostKey ssh.PublicKey
	port    int
	auths   atomic.Int32 // every authentication attempt, "none" included
	envs    atomic.Int32 // env and pty requests
	// keepalives gets a value per keepalive@openssh.com answered.
	keepalives chan struct{}
	stdinLen   atomic.Int64
	// handshakes gets one value per connection once its handshake ended.
	handshakes chan error
	// started gets the line of each command when it starts.
	started chan string
	mu      sync.Mutex
	frozen  []*freezeConn
}

type serverOptions struct {
	rsaOnly     bool // host key RSA instead of ED25519
	rejectLogin bool // accept no client key
}

// clientKey is the key the test client logs in with, as the OpenSSH PEM an
// Auth callback returns.
var clientKeyPEM, clientPub = func() ([]byte, ssh.PublicKey) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		panic(err)
	}
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		panic(err)
	}
	sshPub, _ := ssh.NewPublicKey(pub)
	return pem.EncodeToMemory(block), sshPub
}()

func newTestServer(t *testing.T, opt serverOptions) *testServer {
	t.Helper()
	var signer ssh.Signer
	if opt.rsaOnly {
		k, err := rsa.GenerateKey(rand.Reader, 2048)
		if err != nil {
			t.Fatal(err)
		}
		signer, _ = ssh.NewSignerFromKey(k)
	} else {
		_, k, _ := ed25519.GenerateKey(rand.Reader)
		signer, _ = ssh.NewSignerFromKey(k)
	}
	s := &testServer{t: t, hostKey: signer.PublicKey(), handshakes: make(chan error, 16), keepalives: make(chan struct{}, 1), started: make(chan string, 16)}
	config := &ssh.ServerConfig{
		AuthLogCallback: func(ssh.ConnMetadata, string, error) { s.auths.Add(1) },
		PublicKeyCallback: func(_ ssh.ConnMetadata, k ssh.PublicKey) (*ssh.Permissions, error) {
			if !opt.rejectLogin && bytes.Equal(k.Marshal(), clientPub.Marshal()) {
				return nil, nil
			}
			return nil, fmt.Errorf("unknown key")
		},
	}
	config.AddHostKey(signer)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.ln, s.port = ln, ln.Addr().(*net.TCPAddr).Port
	t.Cleanup(func() {
		_ = ln.Close()
		s.mu.Lock()
		for _, c := range s.frozen {
			c.thaw()
		}
		s.mu.Unlock()
	})
	go func() {
		for {
			nc, err := ln.Accept()
			if err != nil {
				return
			}
			go s.serve(&freezeConn{Conn: nc, thawed: make(chan struct{})}, config)
		}
	}()
	return s
}

func (s *testServer) target(pin Pin) Target {
	return Target{Host: "127.0.0.1", Port: s.port, User: "root", Pin: pin}
}

func (s *testServer) serve(fc *freezeConn, config *ssh.ServerConfig) {
	sc, chans, reqs, err := ssh.NewServerConn(fc, config)
	s.handshakes <- err
	if err != nil {
		return
	}
	defer sc.Close()
	go func() {
		for r := range reqs {
			if r.Type == "keepalive@openssh.com" {
				select {
				case s.keepalives <- struct{}{}:
				default:
				}
			}
			_ = r.Reply(r.Type == "keepalive@openssh.com", nil)
		}
	}()
	for nc := range chans {
		ch, creqs, err := nc.Accept()
		if err != nil {
			continue
		}
		go s.channel(fc, ch, creqs)
	}
}

// channel answers one session: env and pty refused and counted, one exec.
func (s *testServer) channel(fc *freezeConn, ch ssh.Channel, reqs <-chan *ssh.Request) {
	gone := make(chan struct{})
	var line string
	for r := range reqs {
		switch r.Type {
		case "env", "pty-req":
			s.envs.Add(1)
			_ = r.Reply(false, nil)
		case "exec":
			var payload struct{ Line string }
			_ = ssh.Unmarshal(r.Payload, &payload)
			line = payload.Line
			ok := !strings.HasPrefix(line, "refuse")
			_ = r.Reply(ok, nil)
			if !ok {
				continue
			}
			go func() {
				s.started <- line
				code := s.run(fc, line, ch, gone)
				status := make([]byte, 4)
				binary.BigEndian.PutUint32(status, uint32(code))
				_, _ = ch.SendRequest("exit-status", false, status)
				_ = ch.Close()
			}()
			go func() {
				// Drain the rest (the channel's requests end when it closes).
				for r := range reqs {
					_ = r.Reply(false, nil)
				}
				close(gone)
			}()
			return
		default:
			_ = r.Reply(false, nil)
		}
	}
}

// run plays the commands the tests use.
func (s *testServer) run(fc *freezeConn, line string, ch ssh.Channel, gone <-chan struct{}) int {
	switch {
	case line == "echo hi":
		_, _ = io.WriteString(ch, "hi\n")
		_, _ = io.WriteString(ch.Stderr(), "note\n")
		return 0
	case line == "count":
		n, _ := io.Copy(io.Discard, ch)
		s.stdinLen.Store(n)
		_, _ = fmt.Fprint(ch, n)
		return 0
	case line == "exit 3":
		return 3
	case strings.HasPrefix(line, "flood "):
		var n int
		_, _ = fmt.Sscan(strings.TrimPrefix(line, "flood "), &n)
		for i := 0; i < n; i++ {
			_, _ = fmt.Fprintf(ch, "%07d\n", i)
		}
		return 0
	case line == "hang":
		<-gone
		return 0
	case line == "freeze":
		fc.freeze()
		s.mu.Lock()
		s.frozen = append(s.frozen, fc)
		s.mu.Unlock()
		<-fc.thawed
		return 0
	}
	_, _ = fmt.Fprintf(ch.Stderr(), "sh: %s: not found\n", strings.Fields(line)[0])
	return 127
}

// freezeConn stops passing what the client sends once frozen, as a peer
// that was reset does: nothing is answered, nothing closes.
type freezeConn struct {
	net.Conn
	frozen atomic.Bool
	thawed chan struct{}
	once   sync.Once
}

func (c *freezeConn) freeze() { c.frozen.Store(true) }
func (c *freezeConn) thaw()   { c.once.Do(func() { close(c.thawed) }) }

func (c *freezeConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if c.frozen.Load() {
		<-c.thawed
		return 0, io.EOF
	}
	return n, err
}

// authFor returns an Auth that records its calls.
func authFor(calls *atomic.Int32) Auth {
	return func(context.Context) ([]byte, error) {
		calls.Add(1)
		return bytes.Clone(clientKeyPEM), nil
	}
}
