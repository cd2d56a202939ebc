package sshhost

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/crypto/ssh"
)

// system is one running system of a machine (one boot): its root
// filesystem, host key, admitted keys and SSH server. A reset stops it
// and everything it runs.
type system struct {
	m      *Machine
	kind   string // stateRescue or stateInstalled
	root   *fsys
	signer ssh.Signer
	// keys admitted in rescue; the installed system reads its disk's
	// authorized_keys at each login instead, as sshd does.
	keys []ssh.PublicKey

	ctx context.Context // ends with the boot: detached work dies with it
	ln  net.Listener

	mu      sync.Mutex
	conns   map[ssh.Conn]struct{}
	stopped bool
	mounted bool           // rescue: /mnt reaches the installed disk
	procs   map[string]int // running commands by name, for pgrep
}

func newRescueSystem(m *Machine, authorized []string) *system {
	s := &system{m: m, kind: stateRescue, signer: m.rescueKey, procs: map[string]int{}, conns: map[ssh.Conn]struct{}{}}
	for _, k := range authorized {
		if pub, _, _, _, err := ssh.ParseAuthorizedKey([]byte(k)); err == nil {
			s.keys = append(s.keys, pub)
		}
	}
	// A fresh rescue filesystem on each boot, as a RAM-booted rescue
	// system has: nothing written in an earlier rescue session survives.
	s.root = newFS("/root/images", "/mnt", "/tmp", "/etc", "/dev")
	_ = s.root.writeFile("/etc/hostname", []byte("rescue\n"), 0o644, false)
	for _, img := range m.farm.opts.Images {
		_ = s.root.writeFile("/root/images/"+img+".tar.gz", nil, 0o644, false)
	}
	return s
}

func newInstalledSystem(m *Machine) (*system, error) {
	pem, err := m.disk.fs.readFile(hostKeyPath)
	if err != nil {
		return nil, err
	}
	signer, err := ssh.ParsePrivateKey(pem)
	if err != nil {
		return nil, err
	}
	return &system{m: m, kind: stateInstalled, root: m.disk.fs, signer: signer, procs: map[string]int{}, conns: map[ssh.Conn]struct{}{}}, nil
}

func (s *system) config() *ssh.ServerConfig {
	cfg := &ssh.ServerConfig{
		ServerVersion: "SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13",
		PublicKeyCallback: func(meta ssh.ConnMetadata, key ssh.PublicKey) (*ssh.Permissions, error) {
			if meta.User() != "root" {
				return nil, fmt.Errorf("user %q is not admitted", meta.User())
			}
			for _, k := range s.admitted() {
				if bytes.Equal(k.Marshal(), key.Marshal()) {
					return &ssh.Permissions{}, nil
				}
			}
			return nil, errors.New("public key not admitted")
		},
	}
	cfg.AddHostKey(s.signer)
	return cfg
}

func (s *system) admitted() []ssh.PublicKey {
	if s.kind == stateRescue {
		return s.keys
	}
	data, err := s.root.readFile("/root/.ssh/authorized_keys")
	if err != nil {
		return nil
	}
	var out []ssh.PublicKey
	for len(data) > 0 {
		pub, _, _, rest, err := ssh.ParseAuthorizedKey(data)
		if err != nil {
			break
		}
		out = append(out, pub)
		data = rest
	}
	return out
}

func (s *system) serve() {
	cfg := s.config()
	for {
		c, err := s.ln.Accept()
		if err != nil {
			return
		}
		go s.handle(c, cfg)
	}
}

func (s *system) handle(c net.Conn, cfg *ssh.ServerConfig) {
	// A client that never finishes the handshake must not hold a
	// goroutine forever.
	_ = c.SetDeadline(time.Now().Add(30 * time.Second))
	sc, chans, reqs, err := ssh.NewServerConn(c, cfg)
	if err != nil {
		c.Close()
		return
	}
	_ = c.SetDeadline(time.Time{})
	s.mu.Lock()
	if s.stopped {
		s.mu.Unlock()
		sc.Close()
		return
	}
	s.conns[sc] = struct{}{}
	s.mu.Unlock()
	ctx, cancel := context.WithCancel(s.ctx)
	defer func() {
		cancel()
		s.mu.Lock()
		delete(s.conns, sc)
		s.mu.Unlock()
	}()
	go ssh.DiscardRequests(reqs)
	for nc := range chans {
		if nc.ChannelType() != "session" {
			_ = nc.Reject(ssh.UnknownChannelType, "only session channels")
			continue
		}
		ch, creqs, err := nc.Accept()
		if err != nil {
			continue
		}
		go s.session(ctx, ch, creqs)
	}
}

// stop ends the system: its listener, then every connection.
func (s *system) stop() {
	s.mu.Lock()
	s.stopped = true
	s.mu.Unlock()
	if s.ln != nil {
		s.ln.Close()
	}
	s.dropAll()
}

// dropAll cuts every SSH connection, as a network blip does; the listener
// stays, so the client can reconnect.
func (s *system) dropAll() {
	s.mu.Lock()
	conns := make([]ssh.Conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, c := range conns {
		c.Close()
	}
}

func (s *system) session(ctx context.Context, ch ssh.Channel, reqs <-chan *ssh.Request) {
	ran := false
	for req := range reqs {
		switch req.Type {
		case "env":
			var p struct{ Name, Value string }
			if ssh.Unmarshal(req.Payload, &p) == nil {
				s.m.farm.journal.envRequest(EnvRequest{
					Machine: s.m.number, System: s.kind, Time: s.m.farm.clock.Now(),
					Name: p.Name, ValueLength: len(p.Value),
				})
			}
			// Refused, as sshd refuses names outside AcceptEnv.
			_ = req.Reply(false, nil)
		case "exec":
			var p struct{ Command string }
			if ran || ssh.Unmarshal(req.Payload, &p) != nil {
				_ = req.Reply(false, nil)
				continue
			}
			ran = true
			_ = req.Reply(true, nil)
			go s.exec(ctx, ch, p.Command)
		default:
			// No pty, shell or subsystem: the emulator runs commands only.
			if req.WantReply {
				_ = req.Reply(false, nil)
			}
		}
	}
}

// countingReader counts the stdin a command consumed.
type countingReader struct {
	r io.Reader
	n atomic.Int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n.Add(int64(n))
	return n, err
}

func (s *system) exec(ctx context.Context, ch ssh.Channel, line string) {
	rec := s.m.farm.journal.command(Command{
		Machine: s.m.number, System: s.kind, Time: s.m.farm.clock.Now(), Line: line, Exit: -1,
	})
	in := &countingReader{r: ch}
	sh := newShell(ctx, s, in, ch, ch.Stderr())
	status := sh.runLine(line)
	if s.m.commandDone(line) {
		// The command ran (its effects stay); the client never learns
		// how it ended.
		s.m.farm.journal.finish(rec, in.n.Load(), -1)
		s.dropAll()
		return
	}
	if ctx.Err() != nil {
		s.m.farm.journal.finish(rec, in.n.Load(), -1)
		return
	}
	s.m.farm.journal.finish(rec, in.n.Load(), status)
	_, _ = ch.SendRequest("exit-status", false, ssh.Marshal(struct{ Status uint32 }{uint32(status)}))
	_ = ch.Close()
	if *sh.rebooting {
		s.m.reboot(s)
	}
}
