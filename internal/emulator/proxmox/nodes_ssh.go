package proxmox

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"net/netip"
	"sync"
	"syscall"

	"github.com/pkg/sftp"
	"golang.org/x/crypto/ssh"
)

// sshNodes are the nodes' SSH servers: one per node on its own loopback
// address 127.R.S.N of one random /24, all on one port (as the Robot
// farm's machines), each with its own ed25519 host key, admitting the
// one client key for user root and offering the sftp subsystem only, over
// the node's storage "local" (see snippets_fs.go).
type sshNodes struct {
	port      int
	clientPub ssh.PublicKey
	clientPEM []byte
	hostKeys  map[string]ssh.PublicKey

	mu        sync.Mutex
	listeners []net.Listener
	conns     map[net.Conn]bool
	wg        sync.WaitGroup
}

// SSHUser is the only user the nodes admit.
const SSHUser = "root"

// StartSSH starts every node's SSH server on port (0 picks a free one).
// NewServer calls it; an emulator made with New has no SSH until then.
func (e *Emulator) StartSSH(port int) error {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return err
	}
	block, err := ssh.MarshalPrivateKey(priv, "proxmox emulator client")
	if err != nil {
		return err
	}
	clientPub, err := ssh.NewPublicKey(pub)
	if err != nil {
		return err
	}
	s := &sshNodes{clientPub: clientPub, clientPEM: pem.EncodeToMemory(block), hostKeys: map[string]ssh.PublicKey{}, conns: map[net.Conn]bool{}}
	var lastErr error
	for range 32 {
		prefix := [3]byte{127, byte(1 + randInt(254)), byte(randInt(256))}
		if lastErr = e.listenNodes(s, prefix, port); lastErr == nil {
			e.mu.Lock()
			e.ssh = s
			e.mu.Unlock()
			return nil
		}
		s.close()
		s.listeners, s.port = nil, 0
		if !errors.Is(lastErr, syscall.EADDRINUSE) {
			break
		}
	}
	return fmt.Errorf("proxmox emulator: the nodes' SSH servers: %w", lastErr)
}

func randInt(n int64) int64 {
	v, err := rand.Int(rand.Reader, big.NewInt(n))
	if err != nil {
		panic(err)
	}
	return v.Int64()
}

func (e *Emulator) listenNodes(s *sshNodes, prefix [3]byte, port int) error {
	e.mu.Lock()
	nodes := append([]*node(nil), e.nodes...)
	e.mu.Unlock()
	for i, n := range nodes {
		addr := netip.AddrFrom4([4]byte{prefix[0], prefix[1], prefix[2], byte(i + 1)})
		ln, err := net.Listen("tcp", netip.AddrPortFrom(addr, uint16(port)).String())
		if err != nil {
			return err
		}
		tcp, ok := ln.Addr().(*net.TCPAddr)
		if !ok {
			ln.Close()
			return fmt.Errorf("proxmox emulator: a tcp listener on %s has no TCP address", ln.Addr())
		}
		port = tcp.Port
		s.port = port
		s.listeners = append(s.listeners, ln)
		_, hostPriv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			return err
		}
		signer, err := ssh.NewSignerFromKey(hostPriv)
		if err != nil {
			return err
		}
		s.hostKeys[n.Name] = signer.PublicKey()
		e.mu.Lock()
		n.addr = addr.String()
		e.mu.Unlock()
		cfg := &ssh.ServerConfig{
			PublicKeyCallback: func(meta ssh.ConnMetadata, key ssh.PublicKey) (*ssh.Permissions, error) {
				if meta.User() == SSHUser && string(key.Marshal()) == string(s.clientPub.Marshal()) {
					return nil, nil
				}
				return nil, fmt.Errorf("key for %s not admitted", meta.User())
			},
		}
		cfg.AddHostKey(signer)
		s.wg.Add(1)
		go s.accept(e, n, ln, cfg)
	}
	return nil
}

func (s *sshNodes) accept(e *Emulator, n *node, ln net.Listener, cfg *ssh.ServerConfig) {
	defer s.wg.Done()
	for {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		s.conns[c] = true
		s.mu.Unlock()
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			defer func() {
				s.mu.Lock()
				delete(s.conns, c)
				s.mu.Unlock()
				c.Close()
			}()
			s.serveConn(e, n, c, cfg)
		}()
	}
}

func (s *sshNodes) serveConn(e *Emulator, n *node, c net.Conn, cfg *ssh.ServerConfig) {
	sc, chans, reqs, err := ssh.NewServerConn(c, cfg)
	if err != nil {
		return
	}
	defer sc.Close()
	go ssh.DiscardRequests(reqs)
	for nc := range chans {
		if nc.ChannelType() != "session" {
			_ = nc.Reject(ssh.UnknownChannelType, "only sessions")
			continue
		}
		ch, chReqs, err := nc.Accept()
		if err != nil {
			return
		}
		go s.session(e, n, ch, chReqs)
	}
}

// session serves the sftp subsystem; a shell or exec is refused, as the
// provider needs none and must not come to rely on one.
func (s *sshNodes) session(e *Emulator, n *node, ch ssh.Channel, reqs <-chan *ssh.Request) {
	defer ch.Close()
	for req := range reqs {
		if req.Type == "subsystem" && len(req.Payload) >= 4 && string(req.Payload[4:]) == "sftp" {
			_ = req.Reply(true, nil)
			srv := sftp.NewRequestServer(ch, e.snippetHandlers(n))
			_ = srv.Serve()
			_ = srv.Close()
			return
		}
		_ = req.Reply(false, nil)
	}
}

func (s *sshNodes) close() {
	s.mu.Lock()
	for _, ln := range s.listeners {
		ln.Close()
	}
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

// SSHPort is the port every node's SSH server listens on, 0 before
// StartSSH.
func (e *Emulator) SSHPort() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.ssh == nil {
		return 0
	}
	return e.ssh.port
}

// SSHAddr is node's SSH address ("127.R.S.N"), as /cluster/status
// reports its ip.
func (e *Emulator) SSHAddr(nodeName string) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if n := e.nodeLocked(nodeName); n != nil {
		return n.addr
	}
	return ""
}

// SSHHostKeys returns each node's host key pin, "SHA256:…", by node name.
func (e *Emulator) SSHHostKeys() map[string]string {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := map[string]string{}
	if e.ssh != nil {
		for name, k := range e.ssh.hostKeys {
			out[name] = ssh.FingerprintSHA256(k)
		}
	}
	return out
}

// SSHClientKey returns the private key the nodes admit for root (OpenSSH
// PEM) and its public half's fingerprint.
func (e *Emulator) SSHClientKey() (privatePEM []byte, fingerprint string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.ssh == nil {
		return nil, ""
	}
	return append([]byte(nil), e.ssh.clientPEM...), ssh.FingerprintSHA256(e.ssh.clientPub)
}
