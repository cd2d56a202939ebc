package poweraction

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/action/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/power"
	"github.com/seedcompute/terraform-provider-compute/internal/tftimeouts"
)

// defaultTimeout bounds an invocation, its waits and retries included: what
// compute_instance gives an update.
const defaultTimeout = 10 * time.Minute

// Action is one power action of compute_instance.
type Action struct {
	kind     kind
	registry *adapter.Registry
	accounts *adapter.Accounts // nil until the provider is configured
}

var (
	_ action.ActionWithConfigure  = (*Action)(nil)
	_ action.ActionWithModifyPlan = (*Action)(nil)
)

// All returns every power action for the adapter kinds in reg; the provider
// lists them.
func All(reg *adapter.Registry) []func() action.Action {
	out := make([]func() action.Action, 0, len(kinds))
	for _, k := range kinds {
		out = append(out, func() action.Action { return &Action{kind: k, registry: reg} })
	}
	return out
}

func (a *Action) Metadata(_ context.Context, _ action.MetadataRequest, resp *action.MetadataResponse) {
	resp.TypeName = a.kind.typeName()
}

func (a *Action) Configure(_ context.Context, req action.ConfigureRequest, resp *action.ConfigureResponse) {
	if req.ProviderData == nil {
		return
	}
	acc, ok := req.ProviderData.(*adapter.Accounts)
	if !ok {
		resp.Diagnostics.AddError("Unable to configure action", fmt.Sprintf("%s expected *adapter.Accounts, got %T; this is a bug in the provider.",
			a.kind.typeName(), req.ProviderData))
		return
	}
	a.accounts = acc
}

// config is the action's configuration, read attribute by attribute since
// the graceful actions have one more.
type config struct {
	Instance    types.Object
	Timeout     types.String
	Unreachable types.String
	// ShutdownTimeout is the graceful actions' own attribute; null for
	// the others, whose schema lacks it.
	ShutdownTimeout types.String
}

// target is the instance object the configuration names: what the state
// holds of it.
type target struct {
	ID              types.String `tfsdk:"id"`
	Account         types.String `tfsdk:"account"`
	Claim           types.String `tfsdk:"claim"`
	Name            types.String `tfsdk:"name"`
	ShutdownTimeout types.String `tfsdk:"shutdown_timeout"`
	Power           types.String `tfsdk:"power"`
}

// read is the configuration, and its instance object when that is known
// (ok).
func (a *Action) read(ctx context.Context, cfg tfsdk.Config) (c config, t target, ok bool, diags diag.Diagnostics) {
	diags.Append(cfg.GetAttribute(ctx, path.Root("instance"), &c.Instance)...)
	diags.Append(cfg.GetAttribute(ctx, path.Root("timeout"), &c.Timeout)...)
	diags.Append(cfg.GetAttribute(ctx, path.Root("unreachable"), &c.Unreachable)...)
	if a.kind.graceful {
		diags.Append(cfg.GetAttribute(ctx, path.Root("shutdown_timeout"), &c.ShutdownTimeout)...)
	}
	if diags.HasError() || c.Instance.IsNull() || c.Instance.IsUnknown() {
		return c, t, false, diags
	}
	diags.Append(c.Instance.As(ctx, &t, basetypes.ObjectAsOptions{})...)
	return c, t, !diags.HasError(), diags
}

// bound is the graceful action's shutdown_timeout: the action's own, else
// the instance's, else the default.
func (c config) bound(t target) time.Duration {
	for _, v := range []types.String{c.ShutdownTimeout, t.ShutdownTimeout} {
		if !v.IsNull() {
			return tftimeouts.ParseBound(v.ValueString(), !v.IsUnknown(), power.DefaultShutdownTimeout)
		}
	}
	return power.DefaultShutdownTimeout
}

// timeout is how long the invocation may take.
func (c config) timeout() time.Duration {
	if c.Timeout.IsNull() || c.Timeout.IsUnknown() {
		return defaultTimeout
	}
	d, err := time.ParseDuration(c.Timeout.ValueString())
	if err != nil || d <= 0 {
		return defaultTimeout
	}
	return d
}

// unreachable is how long the invocation retries an endpoint it cannot
// reach at all.
func (c config) unreachable() time.Duration {
	return tftimeouts.ParseBound(c.Unreachable.ValueString(), !c.Unreachable.IsNull() && !c.Unreachable.IsUnknown(), adapter.DefaultUnreachable)
}

func (a *Action) Schema(_ context.Context, _ action.SchemaRequest, resp *action.SchemaResponse) {
	k := a.kind
	attrs := map[string]schema.Attribute{
		"instance": schema.SingleNestedAttribute{
			Required: true,
			MarkdownDescription: "The instance to act on: write the resource itself, `instance = compute_instance.web`, or a " +
				"bootstrapped host, `instance = compute_bootstrap_host.db`" + bootstrapDoc(a.registry) + ". Terraform " +
				"keeps the attributes below and drops the others. Written out by hand, `account`, `id` and `claim` are the " +
				"resource's own, as `terraform state show` prints them: the action acts only on a machine that carries the " +
				"provider's mark and this claim, so it never touches a machine another Terraform state holds.",
			Attributes: map[string]schema.Attribute{
				"id":      schema.StringAttribute{Required: true, MarkdownDescription: "The machine's id at the backend."},
				"account": schema.StringAttribute{Required: true, MarkdownDescription: "The id of the `compute_provider_account` the machine lives on."},
				"claim": schema.StringAttribute{Optional: true, MarkdownDescription: "The claim of the state that holds the machine " +
					"(the instance's computed `claim`). Empty or null only for a machine that carries no claim yet."},
				"name": schema.StringAttribute{Optional: true, MarkdownDescription: "The machine's name, for messages."},
				"shutdown_timeout": schema.StringAttribute{Optional: true, MarkdownDescription: "The instance's `shutdown_timeout`, " +
					"which graceful actions use unless they set their own."},
				"power": schema.StringAttribute{Optional: true, MarkdownDescription: "The instance's `power`. An action that needs a " +
					"running machine (a reboot, a reset, a boot into rescue) is refused at plan when the plan finds the machine stopped, " +
					"unless this is `\"on\"`: then the apply that triggers the action starts the machine first (an `action_trigger` " +
					"after an update that switches it on)."},
			},
		},
		"timeout": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "How long the action may take, its waits and retries included: a positive duration such as `\"15m\"`. " +
				"Default `" + tftimeouts.Short(defaultTimeout) + "`.",
			Validators: []validator.String{tftimeouts.Positive("timeout", defaultTimeout)},
		},
		"unreachable": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "How long the action keeps retrying an endpoint it cannot reach at all before it fails: the " +
				"connection is refused, the host name does not resolve, or the TLS handshake fails. A request that cannot reach the " +
				"backend changes nothing there, so an action invoked while the API is down fails within this, naming the endpoint, " +
				"instead of retrying until `timeout`, as reads made while planning do (`timeouts.unreachable` of the resources). " +
				"A duration such as `\"2m\"`, `\"0s\"` for a single attempt. Default `" + tftimeouts.Short(adapter.DefaultUnreachable) + "`. " +
				"A backend that answers with a failure or asks to slow down is retried until `timeout`." + unreachableOfRescue(k),
			Validators: []validator.String{tftimeouts.Bound(adapter.DefaultUnreachable)},
		},
	}
	if k.graceful {
		attrs["shutdown_timeout"] = schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "How long the guest is given to " + map[bool]string{true: "reboot", false: "shut down"}[k.goal == power.Restarted] +
				" before the hard fallback, as on `compute_instance`; `\"0s\"` falls back at once. Default: the instance's " +
				"`shutdown_timeout`, else `" + tftimeouts.Short(power.DefaultShutdownTimeout) + "`.",
			Validators: []validator.String{tftimeouts.Bound(power.DefaultShutdownTimeout)},
		}
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: summaryOf(a.registry, k) + "\n\n" + capabilityDoc(a.registry, k) + " Run it with " +
			"`terraform apply -invoke=action." + k.typeName() + ".NAME` or from a resource's `lifecycle { action_trigger { … } }` " +
			"(Terraform 1.14 and later; OpenTofu 1.12 has no actions and refuses `action` blocks).\n\n" +
			"The action reads the machine when the plan is made and again before it acts, and refuses a machine that does not carry " +
			"the provider's mark, or whose mark carries another claim than `instance.claim`, naming the machine: like " +
			"`compute_instance`, it acts only on a machine this Terraform state holds." + planRefusal(k) + " It waits, within " +
			"`timeout`, until the machine is where it asked, and reports the state it waits on as the action's progress; an " +
			"endpoint that cannot be reached at all is given up after `unreachable`" + givenUpOfRescue(k) + ". It changes nothing Terraform " +
			"records: the next plan shows only what really changed on the machine." + nextPlanOf(a.registry, k),
		Attributes: attrs,
	}
}

// givenUpOfRescue qualifies, for the boot into rescue, the action's
// description of `unreachable`, as unreachableOfRescue explains.
func givenUpOfRescue(k kind) string {
	if !k.rescue {
		return ""
	}
	return " (by the boot into rescue only in its read before it acts; see `unreachable`)"
}

// unreachableOfRescue is what `unreachable` says of the boot into
// rescue: it bounds the read before it acts only. Given up once
// rescue is armed, the boot would leave the machine armed and perhaps a
// reset under way; retried until `timeout`, it is seen to its end when the
// endpoint comes back, and fails saying what it left otherwise.
func unreachableOfRescue(k kind) string {
	if !k.rescue {
		return ""
	}
	return " The boot into rescue gives an endpoint up after `unreachable` only in its read of the machine before it acts: " +
		"from there on its steps (arming rescue, the reset, the wait for the boot) retry an endpoint they cannot reach until " +
		"`timeout`, since giving up would leave rescue armed and " +
		"perhaps a reset under way, while an endpoint back within `timeout` lets the boot finish. How a rescue left armed " +
		"is withdrawn is said in the action's description."
}

// planRefusal is what the plan's read refuses beyond the hold.
func planRefusal(k kind) string {
	s := " The plan refuses an `instance.id` that is no machine id of the account's adapter, before it reads anything"
	if k.running {
		s += ", and a machine it finds stopped, unless `instance.power` is `\"on\"`"
	}
	return s + "."
}

// bootstrapDoc says on which adapters' accounts a bootstrapped host is
// the way to act on a machine the provider installed.
func bootstrapDoc(reg *adapter.Registry) string {
	if reg == nil {
		return ""
	}
	var on []string
	for _, d := range reg.Definitions() {
		if d.Capabilities.Has(adapter.CapBootstrap) {
			on = append(on, "`"+d.Kind+"`")
		}
	}
	if len(on) == 0 {
		return ""
	}
	return " (the way to act on a host the provider installed, on " + strings.Join(on, ", ") + " accounts)"
}

// capabilityDoc says which adapters offer the action.
func capabilityDoc(reg *adapter.Registry, k kind) string {
	if reg == nil {
		return ""
	}
	var yes, no []string
	for _, d := range reg.Definitions() {
		if k.offeredBy(d.Capabilities) {
			yes = append(yes, "`"+d.Kind+"`")
		} else {
			no = append(no, "`"+d.Kind+"`")
		}
	}
	s := "Offered by the adapters " + strings.Join(yes, ", ") + "."
	if len(no) > 0 {
		s += " Refused at plan on " + strings.Join(no, ", ") + ", which cannot do it."
	}
	return s
}
