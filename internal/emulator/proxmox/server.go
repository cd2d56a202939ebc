package proxmox

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Certificate is a self-signed ECDSA certificate for 127.0.0.1 and
// localhost, as pveproxy makes one at install, with its fingerprint.
type Certificate struct {
	TLS tls.Certificate
	// Fingerprint is the SHA-256 of the DER in PVE's form, upper-case hex
	// pairs joined by colons ("AB:CD:…"), as `pvenode cert info` shows.
	Fingerprint string
	Leaf        *x509.Certificate
}

// NewCertificate makes a certificate valid for a year from now.
func NewCertificate() (Certificate, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return Certificate{}, err
	}
	serial, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 62))
	if err != nil {
		return Certificate{}, err
	}
	tmpl := &x509.Certificate{
		SerialNumber: serial,
		Subject:      pkix.Name{CommonName: "pve1.emulated", Organization: []string{"PVE Cluster Node"}},
		NotBefore:    time.Now().Add(-time.Hour), NotAfter: time.Now().AddDate(1, 0, 0),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"},
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		return Certificate{}, err
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return Certificate{}, err
	}
	return Certificate{TLS: tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key, Leaf: leaf}, Fingerprint: Fingerprint(der), Leaf: leaf}, nil
}

// Fingerprint is the SHA-256 of a DER certificate as PVE shows it.
func Fingerprint(der []byte) string {
	sum := sha256.Sum256(der)
	parts := make([]string, len(sum))
	for i, b := range sum {
		parts[i] = fmt.Sprintf("%02X", b)
	}
	return strings.Join(parts, ":")
}

// CertFingerprint is the served certificate's fingerprint ("" for an
// emulator not started by NewServer).
func (e *Emulator) CertFingerprint() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.fingerprint
}

// SetCertificate makes cert the one every new TLS connection is served
// with, as pveproxy does after `pvenode cert set` (renewed, or replaced by
// someone in the middle). Connections already open keep the handshake they
// made. The address stays the same, so nothing else can take it meanwhile.
func (e *Emulator) SetCertificate(cert Certificate) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.fingerprint = cert.Fingerprint
	c := cert.TLS
	e.cert = &c
}

func (e *Emulator) servedCertificate(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.cert, nil
}

// Serve serves e over TLS with cert on ln until the returned stop is
// called or ctx ends. HTTP/2 is off: pveproxy speaks HTTP/1.1, and the
// reason phrase that carries PVE's error messages exists only there.
func (e *Emulator) Serve(ctx context.Context, ln net.Listener, cert Certificate) (stop func()) {
	e.SetCertificate(cert)
	srv := &http.Server{
		Handler: e, ReadHeaderTimeout: 10 * time.Second,
		TLSConfig:    &tls.Config{GetCertificate: e.servedCertificate, MinVersion: tls.VersionTLS12},
		TLSNextProto: map[string]func(*http.Server, *tls.Conn, http.Handler){},
	}
	// ServeTLS returns http.ErrServerClosed once stopped; nothing to report.
	go func() { _ = srv.ServeTLS(ln, "", "") }()
	var once sync.Once
	closeServer := func() { once.Do(func() { _ = srv.Close(); e.Close() }) }
	unwatch := context.AfterFunc(ctx, closeServer)
	return func() {
		unwatch()
		closeServer()
	}
}

// NewServer starts a new emulator over TLS on 127.0.0.1 at a free port
// with a fresh certificate. It returns the endpoint ("https://127.0.0.1:
// PORT", without /api2/json) and a function that stops it; it also stops
// when ctx ends.
func NewServer(ctx context.Context, opts Options) (*Emulator, string, func(), error) {
	cert, err := NewCertificate()
	if err != nil {
		return nil, "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", nil, err
	}
	e := New(opts)
	if err := e.StartSSH(opts.SSHPort); err != nil {
		ln.Close()
		return nil, "", nil, err
	}
	stop := e.Serve(ctx, ln, cert)
	return e, "https://" + ln.Addr().String(), stop, nil
}

// Close ends held agent requests and stops the nodes' SSH servers.
func (e *Emulator) Close() {
	e.stopOne.Do(func() {
		close(e.stopped)
		e.mu.Lock()
		s := e.ssh
		e.mu.Unlock()
		if s != nil {
			s.close()
		}
	})
}
