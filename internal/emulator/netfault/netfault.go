// Package netfault makes endpoints that cannot be reached, for tests of how
// a client tells them from a backend that answers: a loopback port nothing
// listens on, a resolver on loopback that knows no name, and a TLS server
// whose certificate nobody trusts. Everything stays on loopback: the
// resolver never asks the system's name servers.
//
// It imports the standard library only.
package netfault

import (
	"context"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// ClosedAddr is a loopback host:port that nothing listens on, so a
// connection to it is refused, for as long as the test runs. The port is
// held by a socket bound to it that never listens: a port only looked up
// and let go is soon handed to another test's server, whose answers (an
// HTTP 400 where a refusal was expected) fail tests run in parallel.
func ClosedAddr(t testing.TB) string {
	t.Helper()
	fd, err := syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Close(fd) })
	if err := syscall.Bind(fd, &syscall.SockaddrInet4{Addr: [4]byte{127, 0, 0, 1}}); err != nil {
		t.Fatal(err)
	}
	sa, err := syscall.Getsockname(fd)
	in4, ok := sa.(*syscall.SockaddrInet4)
	if err != nil || !ok {
		t.Fatalf("the bound socket has no IPv4 address: %v (%T)", err, sa)
	}
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(in4.Port))
}

// Resolver answers every question with NXDOMAIN ("no such host") from a
// name server of its own on loopback, closed when the test ends.
func Resolver(t testing.TB) *net.Resolver {
	t.Helper()
	pc, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	go func() {
		buf := make([]byte, 1500)
		for {
			n, from, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			if resp := nxdomain(buf[:n]); resp != nil {
				_, _ = pc.WriteTo(resp, from)
			}
		}
	}()
	server := pc.LocalAddr().String()
	return &net.Resolver{PreferGo: true, Dial: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "udp", server)
	}}
}

// nxdomain is the answer to query: its header and question, marked as a
// response with RCODE 3 and nothing else; nil for what is not a query.
func nxdomain(query []byte) []byte {
	const header = 12
	if len(query) < header || query[2]&0x80 != 0 {
		return nil
	}
	end := header
	for end < len(query) && query[end] != 0 {
		end += int(query[end]) + 1
	}
	end += 1 + 4 // the root label, QTYPE and QCLASS
	if end > len(query) {
		return nil
	}
	resp := append([]byte(nil), query[:end]...)
	resp[2] = 0x80 | query[2]&0x01 // QR, RD as asked
	resp[3] = 0x80 | 3             // RA, NXDOMAIN
	resp[4], resp[5] = 0, 1        // one question
	for i := 6; i < header; i++ {  // no answer, authority or additional records
		resp[i] = 0
	}
	return resp
}

// Transport is an HTTP transport whose host names resolve through
// Resolver, so that every request to a name fails as unresolvable.
func Transport(t testing.TB) *http.Transport {
	t.Helper()
	d := &net.Dialer{Resolver: Resolver(t), Timeout: 10 * time.Second}
	return &http.Transport{DialContext: d.DialContext}
}

// UntrustedTLS is the base URL (https://127.0.0.1:PORT) of a TLS server
// whose certificate no system root and no pin the tests use vouches for. It
// answers 200 to anything, should a client not check.
func UntrustedTLS(t testing.TB) string {
	t.Helper()
	s := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {}))
	// The refused handshakes are the point, not news.
	s.Config.ErrorLog = log.New(io.Discard, "", 0)
	s.StartTLS()
	t.Cleanup(s.Close)
	return s.URL
}
