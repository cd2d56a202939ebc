package robot

import (
	"context"
	"strconv"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// textNumbers hands every numeric field to the logger as its decimal text.
// The plugin's log lines reach Terraform as JSON, which Terraform's plugin
// client decodes into float64 and prints with %v: a server number 2100001
// would read server=2.100001e+06. Text survives the trip as it is. Every
// line of the adapter, the request log's and the bootstrap phases', goes
// through the client's logger, so wrapping it once covers them all.
type textNumbers struct{ next adapter.Logger }

func (l textNumbers) Debug(ctx context.Context, msg string, fields map[string]any) {
	l.next.Debug(ctx, msg, numbersAsText(fields))
}

func (l textNumbers) Info(ctx context.Context, msg string, fields map[string]any) {
	l.next.Info(ctx, msg, numbersAsText(fields))
}

func (l textNumbers) Warn(ctx context.Context, msg string, fields map[string]any) {
	l.next.Warn(ctx, msg, numbersAsText(fields))
}

// numbersAsText is fields with each number replaced by its decimal text, a
// copy, so the caller's map is left as it was.
func numbersAsText(fields map[string]any) map[string]any {
	out := make(map[string]any, len(fields))
	for k, v := range fields {
		switch n := v.(type) {
		case int:
			v = strconv.Itoa(n)
		case int64:
			v = strconv.FormatInt(n, 10)
		case int32:
			v = strconv.FormatInt(int64(n), 10)
		case uint:
			v = strconv.FormatUint(uint64(n), 10)
		case uint64:
			v = strconv.FormatUint(n, 10)
		case uint32:
			v = strconv.FormatUint(uint64(n), 10)
		case float64:
			v = strconv.FormatFloat(n, 'f', -1, 64)
		}
		out[k] = v
	}
	return out
}
