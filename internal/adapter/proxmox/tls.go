package proxmox

import (
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/hex"
	"net/http"
	"strings"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// The trust of the API's certificate, one of four, chosen by the settings:
//
//   - tls_fingerprint: the leaf's SHA-256 must equal the pin, checked in
//     VerifyConnection, which runs inside the handshake: on a mismatch the
//     handshake fails and no request, hence no token, is ever written;
//     the chain is not verified (PVE's certificates are self-signed);
//   - ca_file: the chain must verify against that bundle alone;
//   - insecure_skip_tls_verify: nothing is verified (the account warns);
//   - none of them: the system's roots.
type trust struct {
	pin      string // 64 lower-case hex digits, or ""
	caFile   string
	insecure bool
}

// pinMismatch is the handshake's refusal of a certificate that is not the
// pinned one. It names the host and both fingerprints, none of them secret.
type pinMismatch struct {
	host, expected, offered string
}

func (e *pinMismatch) Error() string {
	return "the server at " + e.host + " offered a certificate with SHA-256 fingerprint " + colons(e.offered) +
		", not the pinned " + colons(e.expected)
}

// colons writes a fingerprint the way PVE shows it: upper-case hex pairs
// separated by colons.
func colons(h string) string {
	var b strings.Builder
	for i := 0; i+1 < len(h); i += 2 {
		if i > 0 {
			b.WriteByte(':')
		}
		b.WriteString(strings.ToUpper(h[i : i+2]))
	}
	return b.String()
}

// maxConns is how many idle connections an account keeps to the API: twice
// agentParallel, so a listing's agent reads find theirs kept.
const maxConns = 2 * agentParallel

// transport builds the account's HTTP transport for t. host is host:port,
// for the mismatch message.
func (t trust) transport(host string) (*http.Transport, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	switch {
	case t.pin != "" && t.insecure:
		return nil, adapter.Errorf(adapter.InvalidConfig,
			"tls_fingerprint and insecure_skip_tls_verify are both set; pick one: the pin (safer) or no verification").WithField(settingInsecure)
	case t.caFile != "" && t.pin != "":
		// Each replaces the other's check, so the one left out would be
		// silently ignored.
		return nil, adapter.Errorf(adapter.InvalidConfig,
			"ca_file and tls_fingerprint are both set; pick one: tls_fingerprint trusts that one certificate, ca_file the CAs that sign it").WithField(settingCAFile)
	case t.caFile != "" && t.insecure:
		return nil, adapter.Errorf(adapter.InvalidConfig,
			"ca_file and insecure_skip_tls_verify are both set; pick one: ca_file verifies the certificate against those CAs, insecure_skip_tls_verify verifies nothing").WithField(settingInsecure)
	case t.pin != "":
		pin := t.pin
		// Verification is done by VerifyConnection alone: the chain of a
		// self-signed PVE certificate would never verify.
		cfg.InsecureSkipVerify = true
		cfg.VerifyConnection = func(cs tls.ConnectionState) error {
			if len(cs.PeerCertificates) == 0 {
				return &pinMismatch{host: host, expected: pin, offered: "(none)"}
			}
			sum := sha256.Sum256(cs.PeerCertificates[0].Raw)
			if got := hex.EncodeToString(sum[:]); got != pin {
				return &pinMismatch{host: host, expected: pin, offered: got}
			}
			return nil
		}
	case t.insecure:
		cfg.InsecureSkipVerify = true
	}
	if t.caFile != "" {
		data, err := loadCAFile(t.caFile)
		if err != nil {
			return nil, err
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(data) {
			return nil, adapter.Errorf(adapter.InvalidConfig, "ca_file %s holds no PEM certificate; give a PEM bundle of the CAs", t.caFile).WithField(settingCAFile)
		}
		cfg.RootCAs = pool
	}
	// Every connection opened is a TLS handshake, which costs PVE and the
	// provider more than the read it carries. net/http keeps two idle
	// connections per host unless told otherwise, so reads in parallel
	// (agentParallel agent reads, Terraform's parallel refreshes) would
	// each open their own. The number open is not capped: a request held
	// by a hung API must never keep another waiting for a connection.
	return &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		TLSClientConfig:     cfg,
		TLSHandshakeTimeout: 10 * time.Second,
		MaxIdleConnsPerHost: maxConns,
		IdleConnTimeout:     90 * time.Second,
		ForceAttemptHTTP2:   false,
	}, nil
}
