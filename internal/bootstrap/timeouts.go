package bootstrap

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tftimeouts"
)

// The operations' defaults. A bootstrap waits for a rescue boot, an
// installer and a reboot, so create gets far longer than an instance's.
const (
	defaultCreateTimeout = 2 * time.Hour
	defaultReadTimeout   = 5 * time.Minute
	defaultUpdateTimeout = 2 * time.Hour
	defaultDeleteTimeout = 20 * time.Minute
)

// phaseTimeouts are the timeouts block's attributes that bound one phase
// each, beside the operations' create, update and delete. The framework's
// timeouts module has only the operations, so the block is built here, in
// its style: a string duration per attribute, checked at plan.
var phaseTimeouts = []struct {
	name  string
	phase adapter.Phase
	what  string
}{
	{"rescue", adapter.PhaseRescue, "booting the rescue system and its first answer over SSH"},
	{"installing", adapter.PhaseInstalling, "the unattended install, file delivery included"},
	{"rebooting", adapter.PhaseRebooting, "the reboot into the installed system, software then hardware reset"},
	{"ready", adapter.PhaseReady, "the first-boot unit or ready_command to succeed"},
}

var operationTimeouts = []tftimeouts.Op{
	{Name: "create", Default: defaultCreateTimeout, What: "the claim and the whole bootstrap may take"},
	{Name: "read", Default: defaultReadTimeout, What: "a refresh may take, counting its retries"},
	{Name: "update", Default: defaultUpdateTimeout, What: "an update may take, a resumed bootstrap included"},
	{Name: "delete", Default: defaultDeleteTimeout, What: "releasing the machine may take, counting its retries"},
}

func timeoutsBlock() schema.SingleNestedBlock {
	attrs := map[string]schema.Attribute{}
	for _, op := range operationTimeouts {
		attrs[op.Name] = schema.StringAttribute{
			Optional: true,
			MarkdownDescription: fmt.Sprintf("How long %s: a positive duration such as `\"30s\"` or `\"20m\"` (units `s`, `m`, `h`). Defaults to `%s`.",
				op.What, tftimeouts.Short(op.Default)),
			Validators: []validator.String{duration{}, tftimeouts.Positive(op.Name, op.Default)},
		}
	}
	for _, p := range phaseTimeouts {
		attrs[p.name] = schema.StringAttribute{
			Optional: true,
			MarkdownDescription: fmt.Sprintf("How long the %s phase may take (%s), a positive duration; the adapter's own bound when "+
				"unset. A phase that runs out fails as retryable: the next apply resumes it.", p.name, p.what),
			Validators: []validator.String{duration{}, tftimeouts.Positive(p.name, time.Hour)},
		}
	}
	attrs[tftimeouts.UnreachableName] = tftimeouts.UnreachableAttribute(adapter.DefaultUnreachable)
	return schema.SingleNestedBlock{
		MarkdownDescription: "How long each operation, and each phase of the bootstrap, may take before it gives up. The phases " +
			"count toward `create` (or `update`, for a resumed bootstrap), so keep their sum below it. `unreachable` bounds, within a " +
			"read, the retries of an endpoint that cannot be reached.",
		Attributes: attrs,
	}
}

// timeoutOf reads one attribute of the block: def when the block or the
// attribute is unset (the validators refused anything else at plan).
func timeoutOf(block types.Object, name string, def time.Duration) time.Duration {
	if block.IsNull() || block.IsUnknown() {
		return def
	}
	s, ok := block.Attributes()[name].(types.String)
	if !ok || s.IsNull() || s.IsUnknown() {
		return def
	}
	d, err := time.ParseDuration(s.ValueString())
	if err != nil || d <= 0 {
		return def
	}
	return d
}

// phaseBounds are the phase timeouts the configuration sets, for
// BootstrapRequest.Timeouts.
func phaseBounds(block types.Object) map[adapter.Phase]time.Duration {
	out := map[adapter.Phase]time.Duration{}
	for _, p := range phaseTimeouts {
		if d := timeoutOf(block, p.name, 0); d > 0 {
			out[p.phase] = d
		}
	}
	return out
}

// duration refuses a value that is not a duration (tftimeouts.Positive
// leaves those to the framework's timeouts module, which this block is not).
type duration struct{}

func (duration) Description(context.Context) string { return "a duration such as \"30s\" or \"20m\"" }

func (d duration) MarkdownDescription(ctx context.Context) string { return d.Description(ctx) }

func (duration) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := time.ParseDuration(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Unable to use timeout",
			fmt.Sprintf("%s = %q is not a duration. Set one such as \"30s\", \"20m\" or \"1h30m\" (units s, m, h), or remove it to use the default.",
				req.Path, req.ConfigValue.ValueString()))
	}
}
