package rest

import (
	"context"
	"fmt"
	"strconv"
	"time"
)

// The request log: one DEBUG line per request through the account's
// adapter.Logger, "Robot request: GET /server/{n} 200 in 12ms", with the
// method, the route template (never the filled path nor the query), the
// status, the duration and the class of a failure as fields too. Never a
// header value (the credentials) or a body (an order's keys, cloud-init).
// Numbers are text: a line reaches Terraform as JSON, whose numbers it
// prints as floats.

type logLine struct {
	method, route string
	start         time.Time
}

func (c *Client) logLine(ctx context.Context, l logLine, status int, err error) {
	took := time.Since(l.start).Round(time.Microsecond).String()
	fields := map[string]any{"method": l.method, "route": l.route, "duration": took}
	outcome := "no answer"
	if status != 0 {
		outcome = strconv.Itoa(status)
		fields["status"] = outcome
	}
	if err != nil {
		class := c.cfg.ErrorClass(err)
		fields["error"] = class
		outcome += " (" + class + ")"
	}
	c.Log.Debug(ctx, fmt.Sprintf("%s request: %s %s %s in %s", c.cfg.LogName, l.method, l.route, outcome, took), fields)
}
