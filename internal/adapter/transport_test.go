package adapter

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"testing"
)

func TestFillRoute(t *testing.T) {
	got, err := FillRoute("/nodes/{node}/qemu/{vmid}/config", []string{"pve 1", "100/1"})
	if err != nil || got != "/nodes/pve%201/qemu/100%2F1/config" {
		t.Errorf("filled: %q %v", got, err)
	}
	if _, err := FillRoute("/nodes/{node}", nil); err == nil {
		t.Error("a placeholder without an argument was accepted")
	}
	if _, err := FillRoute("/version", []string{"x"}); err == nil {
		t.Error("an argument without a placeholder was accepted")
	}
}

func TestErrorClass(t *testing.T) {
	for _, c := range []struct {
		err  error
		want string
	}{
		{context.DeadlineExceeded, "no answer within the bound"},
		{fmt.Errorf("Get \"https://x/?q=SENTINEL\": %w", context.Canceled), "canceled"},
		{fmt.Errorf("dial: %w", syscall.ECONNREFUSED), "connection refused"},
		{fmt.Errorf("read: %w", syscall.ECONNRESET), "connection reset"},
		{&net.DNSError{Name: "pve.example"}, "name resolution failed"},
		{&tls.CertificateVerificationError{Err: x509.UnknownAuthorityError{}}, "TLS certificate not accepted"},
		{x509.HostnameError{}, "TLS certificate not accepted"},
		{tls.RecordHeaderError{Msg: "first record does not look like a TLS handshake"}, "the server does not speak TLS"},
		{io.ErrUnexpectedEOF, "connection closed before the answer ended"},
		{errors.New("Get \"https://x/?q=SENTINEL\": something"), "transport error"},
	} {
		if got := ErrorClass(c.err); got != c.want {
			t.Errorf("ErrorClass(%v) = %q, want %q", c.err, got, c.want)
		}
	}
}
