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
	var dns *net.DNSError
	var unknownCA x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var certificate *tls.CertificateVerificationError
	var record tls.RecordHeaderError
	var netErr net.Error
	switch {
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, context.DeadlineExceeded):
		return "no answer within the bound"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.As(err, &dns):
		return "name resolution failed"
	case errors.As(err, &unknownCA), errors.As(err, &hostname), errors.As(err, &certificate):
		return "TLS certificate not accepted"
	case errors.As(err, &record):
		return "the server does not speak TLS"
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "connection closed before the answer ended"
	case errors.As(err, &netErr) && netErr.Timeout():
		return "network timeout"
	}
	return "transport error"
}
