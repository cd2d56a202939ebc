package proxmox

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"strconv"
	"syscall"
	"time"
)

// The request log: one DEBUG line per request through the account's
// adapter.Logger: method, the route template ("/nodes/{node}/qemu/{vmid}/config",
// never the filled path nor the query), status, duration and the class of
// a failure. Never a header value (the token) or a body (cloud-init keys,
// descriptions).
func (c *client) logLine(ctx context.Context, k call, start time.Time, status int, err error) {
	fields := map[string]any{
		"method":   k.method,
		"route":    k.route,
		"duration": time.Since(start).Round(time.Microsecond).String(),
	}
	if status != 0 {
		fields["status"] = strconv.Itoa(status)
	}
	if err != nil {
		fields["error"] = errorClass(err)
	}
	c.log.Debug(ctx, "PVE request", fields)
}

// errorClass names what kind of failure err is, from its chain alone.
func errorClass(err error) string {
	var dns *net.DNSError
	var unknownCA x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var pin *pinMismatch
	var rec tls.RecordHeaderError
	var netErr net.Error
	switch {
	case errors.As(err, &pin):
		return "TLS certificate does not match tls_fingerprint"
	case errors.Is(err, errRequestBound):
		return "no answer within the bound"
	case errors.Is(err, context.Canceled):
		return "canceled"
	case errors.Is(err, context.DeadlineExceeded):
		return "deadline passed"
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused"
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset"
	case errors.As(err, &dns):
		return "name resolution failed"
	case errors.As(err, &unknownCA), errors.As(err, &hostname):
		return "TLS certificate not accepted (set tls_fingerprint or ca_file)"
	case errors.As(err, &rec):
		return "the server does not speak TLS (the endpoint must be https)"
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return "connection closed before the answer ended"
	case errors.As(err, &netErr) && netErr.Timeout():
		return "network timeout"
	}
	return "transport error"
}
