package offers

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// The validators here replace the framework's stock ones, whose messages
// name the attribute and the value but not what to write instead.

const invalidFilter = "Unable to use compute_offers argument"

// atLeastZero refuses negative minimums and maximums.
type atLeastZero struct{ name string }

func (atLeastZero) Description(context.Context) string { return "0 or more" }

func (c atLeastZero) MarkdownDescription(ctx context.Context) string { return c.Description(ctx) }

func (c atLeastZero) ValidateInt64(_ context.Context, req validator.Int64Request, resp *validator.Int64Response) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || req.ConfigValue.ValueInt64() >= 0 {
		return
	}
	c.refuse(req.Path, strconv.FormatInt(req.ConfigValue.ValueInt64(), 10), &resp.Diagnostics)
}

func (c atLeastZero) ValidateFloat64(_ context.Context, req validator.Float64Request, resp *validator.Float64Response) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || req.ConfigValue.ValueFloat64() >= 0 {
		return
	}
	c.refuse(req.Path, strconv.FormatFloat(req.ConfigValue.ValueFloat64(), 'g', -1, 64), &resp.Diagnostics)
}

func (c atLeastZero) refuse(p path.Path, value string, diags *diag.Diagnostics) {
	diags.AddAttributeError(p, invalidFilter, fmt.Sprintf(
		"%s = %s is negative; use 0 or more, or leave %s out to not filter on it.", c.name, value, c.name))
}

// kindCheck accepts the offer kinds the contract defines.
type kindCheck struct{}

func (kindCheck) Description(context.Context) string {
	return fmt.Sprintf("%q or %q", adapter.KindVPS, adapter.KindMetal)
}

func (c kindCheck) MarkdownDescription(ctx context.Context) string { return c.Description(ctx) }

func (kindCheck) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	v := req.ConfigValue
	if v.IsNull() || v.IsUnknown() || v.ValueString() == adapter.KindVPS || v.ValueString() == adapter.KindMetal {
		return
	}
	resp.Diagnostics.AddAttributeError(req.Path, invalidFilter, fmt.Sprintf(
		"kind = %q is not an offer kind; use %q (virtual servers) or %q (dedicated machines), or leave kind out for both.",
		v.ValueString(), adapter.KindVPS, adapter.KindMetal))
}

// locationCheck refuses an empty location, which would read as "no filter".
type locationCheck struct{}

func (locationCheck) Description(context.Context) string { return "a location name, not empty" }

func (c locationCheck) MarkdownDescription(ctx context.Context) string { return c.Description(ctx) }

func (locationCheck) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	v := req.ConfigValue
	if v.IsNull() || v.IsUnknown() || v.ValueString() != "" {
		return
	}
	resp.Diagnostics.AddAttributeError(req.Path, invalidFilter,
		"location is empty; name a location, or leave location out to use each account's own location.")
}

// gpuModelCheck refuses a GPU model without a word in it, which would match
// nothing and read as a typo.
type gpuModelCheck struct{}

func (gpuModelCheck) Description(context.Context) string { return "a GPU model name, such as A100" }

func (c gpuModelCheck) MarkdownDescription(ctx context.Context) string { return c.Description(ctx) }

func (gpuModelCheck) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	v := req.ConfigValue
	if v.IsNull() || v.IsUnknown() || strings.ContainsFunc(v.ValueString(), func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) {
		return
	}
	resp.Diagnostics.AddAttributeError(req.Path, invalidFilter, fmt.Sprintf(
		"gpu_model = %q names no GPU model; name one such as \"A100\" or \"RTX 4000\", or leave gpu_model out to not filter on it.", v.ValueString()))
}
