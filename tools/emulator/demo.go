package main

import (
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"time"

	"golang.org/x/crypto/ssh"
)

// What a bootstrap needs besides the webservice and the farm, so the quick
// start can install a dedicated server with no account and no network: an
// SSH key pair the Robot account knows, and an https server for the
// first-boot binary that the farm's curl trusts.

// demoKey is the Robot account's SSH key: its public half is registered
// under /key (so rescue activations may name it), its private half goes to
// the file -robot-ssh-key-out names, for the account's ssh_private_key.
type demoKey struct {
	fingerprint string // as Robot lists it, MD5 hex with colons
	path        string // where the private key was written; "" if nowhere
}

// newDemoKey makes a fresh ed25519 key pair, writes the private key to
// path (when set, mode 0600) and registers the public key with the Robot
// webservice through its own API, as a user does under Key management.
func newDemoKey(robotAPI http.Handler, user, password, path string) (demoKey, error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return demoKey{}, err
	}
	sshPub, err := ssh.NewPublicKey(pub)
	if err != nil {
		return demoKey{}, err
	}
	if path != "" {
		block, err := ssh.MarshalPrivateKey(priv, "compute emulator demo key")
		if err != nil {
			return demoKey{}, err
		}
		if err := writePrivate(path, pem.EncodeToMemory(block)); err != nil {
			return demoKey{}, fmt.Errorf("-robot-ssh-key-out %s: %w", path, err)
		}
	}
	form := url.Values{"name": {"compute-demo"}, "data": {strings.TrimSpace(string(ssh.MarshalAuthorizedKey(sshPub)))}}
	req := httptest.NewRequest(http.MethodPost, "/key", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(user, password)
	rec := httptest.NewRecorder()
	robotAPI.ServeHTTP(rec, req)
	var body struct {
		Key struct {
			Fingerprint string `json:"fingerprint"`
		} `json:"key"`
	}
	if err := json.Unmarshal(rec.Body.Bytes(), &body); rec.Code != http.StatusCreated || err != nil || body.Key.Fingerprint == "" {
		return demoKey{}, fmt.Errorf("registering the demo SSH key with the Robot emulator: %d %s", rec.Code, rec.Body.String())
	}
	return demoKey{fingerprint: body.Key.Fingerprint, path: path}, nil
}

// writePrivate writes a private key readable by its owner only, also when
// the file already exists with a wider mode.
func writePrivate(path string, data []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return err
	}
	if err := f.Chmod(0o600); err != nil {
		_ = f.Close()
		return err
	}
	if _, err := f.Write(data); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

// firstBootPath is where the file server serves the demo's first-boot
// binary.
const firstBootPath = "/first-boot/compute-demo-agent"

// firstBootBinary is the demo's first-boot program. The emulated installed
// system never runs it (it checks that the unit's ExecStart is on the
// disk), so a script says what it is to whoever reads the disk of a real
// machine it reached by mistake.
var firstBootBinary = []byte("#!/bin/sh\n# compute emulator: demo first-boot program\necho 'compute demo: first boot done'\n")

// fileServer is the https server of the first-boot binary on 127.0.0.1,
// with a certificate from a CA made at start, which only the farm's curl
// trusts (client).
type fileServer struct {
	url, sha256 string
	client      *http.Client
	srv         *http.Server
}

func startFileServer() (*fileServer, error) {
	cert, pool, err := demoCertificate()
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET "+firstBootPath, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		_, _ = w.Write(firstBootBinary)
	})
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second,
		TLSConfig: &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}}
	go func() { _ = srv.ServeTLS(ln, "", "") }()
	sum := sha256.Sum256(firstBootBinary)
	return &fileServer{
		url:    "https://" + ln.Addr().String() + firstBootPath,
		sha256: hex.EncodeToString(sum[:]),
		client: &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}}},
		srv:    srv,
	}, nil
}

func (f *fileServer) Close() { _ = f.srv.Close() }

// demoCertificate makes a CA and a certificate for 127.0.0.1 it signed,
// valid for a day: a CA rather than a lone self-signed certificate, so
// the farm trusts what a real machine's curl trusts, an issuer.
func demoCertificate() (tls.Certificate, *x509.CertPool, error) {
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	now := time.Now()
	ca := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "compute emulator demo CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true, IsCA: true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	caCert, err := x509.ParseCertificate(caDER)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	leafKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	leaf := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
	}
	leafDER, err := x509.CreateCertificate(rand.Reader, leaf, caCert, &leafKey.PublicKey, caKey)
	if err != nil {
		return tls.Certificate{}, nil, err
	}
	pool := x509.NewCertPool()
	pool.AddCert(caCert)
	return tls.Certificate{Certificate: [][]byte{leafDER}, PrivateKey: leafKey}, pool, nil
}
