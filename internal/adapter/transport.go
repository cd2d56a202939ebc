package adapter

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"strings"
	"syscall"
)

// FillRoute puts args, path-escaped, into route's "{…}" placeholders in
// order. The adapters log the route template, never the filled path, so a
// path argument never reaches a log line.
func FillRoute(route string, args []string) (string, error) {
	var out strings.Builder
	rest := route
	for _, a := range args {
		i := strings.Index(rest, "{")
		j := strings.Index(rest, "}")
		if i < 0 || j < i {
			return "", fmt.Errorf("route %s has fewer placeholders than arguments", route)
		}
		out.WriteString(rest[:i])
		out.WriteString(url.PathEscape(a))
		rest = rest[j+1:]
	}
	if strings.Contains(rest, "{") {
		return "", fmt.Errorf("route %s has more placeholders than arguments", route)
	}
	out.WriteString(rest)
	return out.String(), nil
}

// ErrorClass names what kind of transport failure err is, from its chain
// alone: the error's own text quotes the request's URL, query included, so
// it is never what a log line or message shows.
func ErrorClass(err error) string {
	class, _ := transportFailure(err)
	return class
}

// CannotReach reports whether err, a transport error, says the endpoint
// could not be reached at all: the connection was refused or its dial
// failed otherwise (no route, no such host), the host name did not resolve,
// or the TLS handshake failed (an untrusted or mismatched certificate, a
// server that does not speak TLS). None of these is an answer of the
// backend: nothing was sent, so another attempt seconds later meets the same
// wall unless someone mends it. A request that reached the backend and went
// unanswered (a bound, a reset) is not among them.
//
// Adapters call it in their classify and mark what it finds with
// MarkUnreachable; the Terraform layer asks Unreachable.
func CannotReach(err error) bool {
	_, unreachable := transportFailure(err)
	return unreachable
}

// transportFailure is the one reading of a transport error's chain that
// ErrorClass and CannotReach share: the kind of failure, and whether it
// left the endpoint unreached.
func transportFailure(err error) (class string, unreachable bool) {
	var dns *net.DNSError
	var op *net.OpError
	var unknownCA x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	var certificate *tls.CertificateVerificationError
	var record tls.RecordHeaderError
	var alert tls.AlertError
	var netErr net.Error
	switch {
	case err == nil:
		return "", false
	case errors.Is(err, context.Canceled):
		return "canceled", false
	case errors.Is(err, context.DeadlineExceeded):
		return "no answer within the bound", false
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused", true
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return "no route to the host", true
	case errors.As(err, &dns):
		return "name resolution failed", true
	case errors.As(err, &op) && op.Op == "dial" && !op.Timeout():
		return "connection failed", true
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset", false
	case errors.As(err, &unknownCA), errors.As(err, &hostname), errors.As(err, &invalid), errors.As(err, &certificate):
		return "TLS certificate not accepted", true
	case errors.As(err, &record):
		return "the server does not speak TLS", true
	case errors.As(err, &alert):
		return "TLS handshake refused", true
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "connection closed before the answer ended", false
	case errors.As(err, &netErr) && netErr.Timeout():
		return "network timeout", false
	case strings.Contains(err.Error(), httpToHTTPS):
		return "the server does not speak TLS", true
	}
	return "transport error", false
}

// httpToHTTPS is how net/http reports a TLS client's record error whose
// bytes are an HTTP answer: as text alone, the record error dropped.
const httpToHTTPS = "server gave HTTP response to HTTPS client"
