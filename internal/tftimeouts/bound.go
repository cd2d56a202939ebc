package tftimeouts

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// Bound checks an attribute that bounds one wait inside an operation, such
// as how long a graceful shutdown may take before the power is cut: a
// duration of zero or more, zero meaning "do not wait". Unlike a timeout it
// may be zero, since not waiting is a choice, but it must parse, as nothing
// else checks it before the apply would.
func Bound(def time.Duration) validator.String { return bound{def: def} }

type bound struct{ def time.Duration }

func (v bound) Description(context.Context) string {
	return "a duration of zero or more, such as \"30s\" or \"2m\""
}

func (v bound) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v bound) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	value := req.ConfigValue.ValueString()
	d, err := time.ParseDuration(value)
	var why string
	switch {
	case err != nil:
		why = "is not a duration"
	case d < 0:
		why = "is negative"
	default:
		return
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Unable to use duration",
		fmt.Sprintf("%s = %q %s. Set a duration such as \"30s\" or \"%s\" (units s, m, h), \"0s\" not to wait at all, "+
			"or remove %s to use the default (%s).", req.Path, value, why, Short(2*v.def), req.Path, Short(v.def)))
}

// ParseBound reads a value Bound has accepted; def stands in for null or
// unknown, and for a value Bound would refuse.
func ParseBound(value string, known bool, def time.Duration) time.Duration {
	if !known {
		return def
	}
	d, err := time.ParseDuration(value)
	if err != nil || d < 0 {
		return def
	}
	return d
}
