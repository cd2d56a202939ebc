package bootstrap

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
	"github.com/seedcompute/terraform-provider-compute/internal/tfidentity"
)

// ModifyPlan refuses an account whose adapter cannot bootstrap, and decides
// what an in-place update does: a host whose bootstrap has not reached
// ready (an apply that failed and was untainted, or one whose state was
// saved mid-way) plans an update that resumes it, so its progress outputs
// are unknown; any other update changes only what the machine does not
// depend on, and every output keeps its value.
func (r *Resource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		var state model
		if !req.State.Raw.IsNull() && !req.State.Get(ctx, &state).HasError() {
			r.warnCancels(&state, false, &resp.Diagnostics)
		}
		return
	}
	var plan model
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	r.checkAccount(plan.Account, &resp.Diagnostics)
	if resp.Diagnostics.HasError() || req.State.Raw.IsNull() || len(resp.RequiresReplace) > 0 {
		return
	}
	var state model
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	keepOutputs(&plan, &state)
	if replacing(ctx, &plan, &state, req.Private) {
		// The new host is claimed on the new account: nothing to prove.
		r.warnCancels(&state, true, &resp.Diagnostics)
	} else {
		r.repointPlan(ctx, &plan, &state, &resp.Diagnostics)
	}
	switch {
	case adopting(ctx, req.Private):
		// The first apply after an import records the configuration and,
		// on a machine without the mark, writes one with a new claim.
		if state.Claim.IsNull() {
			plan.Claim = types.StringUnknown()
		}
	case remarking(ctx, req.Private):
		plan.Claim = types.StringUnknown()
	case state.Phase.ValueString() != string(adapter.PhaseReady):
		resumePlan(&plan)
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
	tfidentity.Plan(ctx, &resp.Plan, resp.Identity, &resp.Diagnostics)
}

// keepOutputs carries the outputs over: an in-place change that does not
// resume touches none of them, and Update reads the machine again.
func keepOutputs(plan, state *model) {
	plan.ID, plan.MachineID, plan.Claim = state.ID, state.MachineID, state.Claim
	plan.ProductUUID, plan.IPv4, plan.IPv6 = state.ProductUUID, state.IPv4, state.IPv6
	plan.Phase, plan.FailedPhase, plan.Reason = state.Phase, state.FailedPhase, state.Reason
	plan.KnownHosts, plan.RescueHostKey, plan.InstallFingerprint = state.KnownHosts, state.RescueHostKey, state.InstallFingerprint
	plan.Ready = state.Ready
}

// resumePlan: the update runs the bootstrap on from where it stopped, so
// what it learns is known only then.
func resumePlan(plan *model) {
	unknown := types.StringUnknown()
	plan.Phase, plan.FailedPhase, plan.Reason = unknown, unknown, unknown
	plan.ProductUUID, plan.KnownHosts, plan.RescueHostKey, plan.InstallFingerprint = unknown, unknown, unknown, unknown
	plan.IPv4, plan.IPv6 = unknown, unknown
	plan.Ready = types.BoolUnknown()
}

// checkAccount refuses, at plan, an account whose adapter does not declare
// the bootstrap capability, and names the kinds that do.
func (r *Resource) checkAccount(account types.String, diags *diag.Diagnostics) {
	if account.IsNull() || account.IsUnknown() || r.accounts == nil {
		return
	}
	loc, err := adapter.ParseLocator(account.ValueString())
	if err == nil {
		_, err = r.accounts.Registry.Definition(loc.Kind)
	}
	if err != nil {
		diags.AddAttributeError(path.Root("account"), invalid,
			fmt.Sprintf("%s must be a compute_provider_account's id: %s", r.registry.DescribeID(account.ValueString()), tfdiag.Message(err)))
		return
	}
	if detail := cannotBootstrap(r.accounts.Registry, account.ValueString()); detail != "" {
		diags.AddAttributeError(path.Root("account"), invalid, detail)
	}
}

// cannotBootstrap is the refusal of an account whose adapter cannot
// bootstrap hosts, which the list resource makes too (NewList); "" when
// it can, or when the id is no account's id (refused where it is read).
func cannotBootstrap(reg *adapter.Registry, account string) string {
	loc, err := adapter.ParseLocator(account)
	var def adapter.Definition
	if err == nil {
		def, err = reg.Definition(loc.Kind)
	}
	if err != nil || def.Capabilities.Has(adapter.CapBootstrap) {
		return ""
	}
	way := "No account kind of this provider can; use compute_instance for this account instead."
	if kinds := strings.TrimSpace(bootstrapKinds(reg)); kinds != "" {
		way = "Use a compute_provider_account of a kind that can bootstrap. " + kinds
	}
	return fmt.Sprintf("%s is a %s account, and its adapter cannot bootstrap hosts (it offers: %s). %s",
		reg.DescribeID(account), def.BlockName(), def.Capabilities, way)
}

// The private state keeps two facts about an import (see import.go):
// privateImported until the first refresh has taken the machine's claim,
// privateAdopting until the first apply has recorded the configuration, so
// that the attributes an import cannot read back do not replace the host.
const (
	privateImported = "imported"
	privateAdopting = "adopting"
)

type privateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

type privateSetter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

func has(ctx context.Context, p privateGetter, key string) bool {
	if p == nil {
		return false
	}
	raw, _ := p.GetKey(ctx, key)
	return len(raw) > 0
}

func adopting(ctx context.Context, p privateGetter) bool { return has(ctx, p, privateAdopting) }

func mark(ctx context.Context, p privateSetter, key string, on bool) diag.Diagnostics {
	if !on {
		return p.SetKey(ctx, key, nil)
	}
	return p.SetKey(ctx, key, []byte(`true`))
}

const replaceDoc = "A change replaces the host, except on the first apply after an import, which records it."

// replaceUnlessImported replaces the host when the value changes, except
// on the first apply after an import: the import could not read the value
// back, and the host is taken as it is.
var replaceUnlessImported = stringplanmodifier.RequiresReplaceIf(
	func(ctx context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = !adopting(ctx, req.Private)
	}, replaceDoc, replaceDoc)

func replaceListIfNotImported(ctx context.Context, req planmodifier.ListRequest, resp *listplanmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = !adopting(ctx, req.Private)
}

func replaceObjectIfNotImported(ctx context.Context, req planmodifier.ObjectRequest, resp *objectplanmodifier.RequiresReplaceIfFuncResponse) {
	resp.RequiresReplace = !adopting(ctx, req.Private)
}
