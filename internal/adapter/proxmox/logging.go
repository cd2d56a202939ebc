package proxmox

import (
	"context"
	"errors"
	"strconv"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
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
	var pin *pinMismatch
	switch {
	case errors.As(err, &pin):
		return "TLS certificate does not match tls_fingerprint"
	case errors.Is(err, errRequestBound):
		return "no answer within the bound"
	}
	return adapter.ErrorClass(err)
}
