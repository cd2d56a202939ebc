package netfault

import (
	"context"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"syscall"
	"testing"
	"time"
)

// TestFaults: each endpoint fails as it says, so the adapters' tests that
// use them test the failure they name.
func TestFaults(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	closed := ClosedAddr(t)
	_, err := (&net.Dialer{}).DialContext(ctx, "tcp", closed)
	if !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("closed port: %v, want a refused connection", err)
	}
	// No server of a test running beside this one can take the port.
	if l, err := net.Listen("tcp", closed); err == nil {
		l.Close()
		t.Errorf("closed port %s: another listener could take it while the test runs", closed)
	}
	_, err = Resolver(t).LookupHost(ctx, "api.example.invalid")
	var dns *net.DNSError
	if !errors.As(err, &dns) || !dns.IsNotFound {
		t.Errorf("resolver: %v, want no such host", err)
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://api.example.invalid/v1", nil)
	resp, err := Transport(t).RoundTrip(req)
	if !errors.As(err, &dns) {
		t.Errorf("transport: %v, want a DNS error", err)
	}
	closeBody(resp)
	req, _ = http.NewRequestWithContext(ctx, http.MethodGet, UntrustedTLS(t), nil)
	var unknown x509.UnknownAuthorityError
	resp, err = http.DefaultTransport.RoundTrip(req)
	if !errors.As(err, &unknown) {
		t.Errorf("untrusted TLS: %v, want an unknown authority", err)
	}
	closeBody(resp)
}

// closeBody closes the body of a response that should not have come.
func closeBody(resp *http.Response) {
	if resp != nil {
		_ = resp.Body.Close()
	}
}
