package instance

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
	"github.com/seedcompute/terraform-provider-compute/internal/tfidentity"
	"github.com/seedcompute/terraform-provider-compute/internal/tfmodel"
	"github.com/seedcompute/terraform-provider-compute/internal/tfstate"
)

// Default timeouts, overridden by the timeouts block.
const (
	defaultCreateTimeout = 10 * time.Minute
	defaultReadTimeout   = 5 * time.Minute
	defaultUpdateTimeout = 10 * time.Minute
	defaultDeleteTimeout = 10 * time.Minute
)

// typeName is the resource's type name; the provider's type name is
// "compute".
const typeName = "compute_instance"

// Resource is compute_instance.
type Resource struct {
	registry *adapter.Registry
	accounts *adapter.Accounts // nil until the provider is configured
}

var (
	_ resource.ResourceWithConfigure    = (*Resource)(nil)
	_ resource.ResourceWithModifyPlan   = (*Resource)(nil)
	_ resource.ResourceWithImportState  = (*Resource)(nil)
	_ resource.ResourceWithIdentity     = (*Resource)(nil)
	_ resource.ResourceWithUpgradeState = (*Resource)(nil)
)

// New returns the resource for the adapter kinds in reg; the provider lists
// it.
func New(reg *adapter.Registry) resource.Resource { return &Resource{registry: reg} }

func (r *Resource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = typeName
	// The identity holds the account, which a re-point changes in place
	// (repoint.go) while the machine stays the same one.
	resp.ResourceBehavior.MutableIdentity = true
}

// IdentitySchema is the account and the machine's id (Terraform 1.12 and
// later), which an import block's identity names a machine by.
func (r *Resource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = tfidentity.Schema("instance")
}

func (r *Resource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = resourceSchema(ctx, r.registry)
}

// UpgradeState reads states of version 0, whose id was
// ACCOUNT_ID/MACHINE_ID.
func (r *Resource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{0: tfstate.Rewrite(tfstate.MachineIDs)}
}

func (r *Resource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if req.ProviderData == nil {
		return
	}
	a, ok := req.ProviderData.(*adapter.Accounts)
	if !ok {
		resp.Diagnostics.AddError("Unable to configure instance", fmt.Sprintf("compute_instance expected *adapter.Accounts, got %T; this is a bug in the provider.", req.ProviderData))
		return
	}
	r.accounts = a
}

func (r *Resource) clock() adapter.Clock { return r.accounts.Env.Clock }

// fields maps the adapter's request fields onto this resource's attributes.
// user_data is left out on purpose: Terraform 1.15 and later print the
// configuration an attribute's diagnostic points at, which for user_data is
// the content itself (a heredoc), so its refusals go on the resource and
// name user_data in their text.
var fields = tfdiag.Fields(adapter.FieldName, adapter.FieldOfferID, adapter.FieldImage, adapter.FieldLocation, adapter.FieldLabels,
	adapter.FieldPower)

// ModifyPlan computes what only the provider can: the user data digest, the
// default location, the id after an in-place account change (proven to
// reach the machine, repoint.go); it decides the replacement the schema
// cannot express (user data), warns when a replacement or destroy cancels a
// rental, refuses what the adapter cannot do, and checks offer, image and
// location against the catalog before anything is created.
func (r *Resource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		r.planDestroy(ctx, req, resp)
		return
	}
	var plan, state model
	resp.Diagnostics.Append(tfmodel.Get(ctx, req.Plan.Schema.Type(), req.Plan.Raw, &plan)...)
	var userData types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(adapter.FieldUserData), &userData)...)
	creating := req.State.Raw.IsNull()
	if !creating {
		resp.Diagnostics.Append(tfmodel.Get(ctx, req.State.Schema.Type(), req.State.Raw, &state)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	plan.UserDataSHA256 = digest(userData)
	plan.Managed = types.BoolValue(true)
	checkShutdownBound(&plan, creating, &resp.Diagnostics)

	loc, def, accountKnown, ok := r.planAccount(plan.Account, &resp.Diagnostics)
	if !ok {
		return
	}
	if creating {
		defaultLocation(&plan, loc, def, accountKnown)
	} else if !r.planExisting(ctx, req, &plan, &state, def, accountKnown, resp) {
		return
	}
	if accountKnown {
		checkRules(&plan, &state, creating, def, &resp.Diagnostics)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	// A replacement (new user data, say) is planned again as a create, so
	// the machine that replaces is checked as a new one.
	changed := !creating && (!plan.OfferID.Equal(state.OfferID) || !plan.Image.Equal(state.Image) || !plan.Location.Equal(state.Location))
	var location types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(adapter.FieldLocation), &location)...)
	// A location neither the instance nor its account sets is the adapter's
	// choice at create, and checked as "" (any); one known only at apply
	// leaves the check to apply.
	located := !plan.Location.IsUnknown() || location.IsNull()
	if (creating || changed) && accountKnown && known(plan.OfferID, plan.Image, plan.Name) && located {
		r.checkCatalog(ctx, &plan, userData, def, location.IsNull() && !plan.Location.IsUnknown(), resp)
	}
	resp.Diagnostics.Append(tfmodel.Set(ctx, &resp.Plan, resp.Plan.Schema.Type(), &plan)...)
	tfidentity.Plan(ctx, &resp.Plan, resp.Identity, &resp.Diagnostics)
	if !creating && !resp.Plan.Raw.Equal(req.State.Raw) {
		// Whatever the update does, it reads the machine last, and what the
		// backend can do to it then is known only then.
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("available_actions"), types.ListUnknown(types.StringType))...)
	}
}

// planAccount reads the planned account: its locator and its adapter's
// definition once it is known (accountKnown), or an error on the
// attribute (!ok).
func (r *Resource) planAccount(account types.String, diags *diag.Diagnostics) (loc adapter.Locator, def adapter.Definition, accountKnown, ok bool) {
	if !known(account) || r.accounts == nil {
		return loc, def, false, true
	}
	loc, err := adapter.ParseLocator(account.ValueString())
	if err == nil {
		def, err = r.accounts.Registry.Definition(loc.Kind)
	}
	if err == nil {
		// Settings the adapter refuses (a token where a reference
		// belongs, say) are the account's fault, not the catalog's.
		_, err = r.accounts.Registry.Locate(loc.Kind, loc.Settings)
	}
	if err != nil {
		diags.AddAttributeError(path.Root("account"), "Unable to use account",
			fmt.Sprintf("account must be a compute_provider_account's id: %s", tfdiag.Message(err)))
		return loc, def, false, false
	}
	return loc, def, true, true
}

// defaultLocation gives a new instance that names no location its account's
// default location, when the adapter has one.
func defaultLocation(plan *model, loc adapter.Locator, def adapter.Definition, accountKnown bool) {
	if !plan.Location.IsUnknown() || !accountKnown {
		return
	}
	if v := def.Value(loc.Settings, adapter.RoleLocation); v != "" {
		plan.Location = types.StringValue(v)
	}
}

// planExisting is ModifyPlan's part for an existing machine; false when the
// plan is refused.
func (r *Resource) planExisting(ctx context.Context, req resource.ModifyPlanRequest, plan, state *model, def adapter.Definition, accountKnown bool, resp *resource.ModifyPlanResponse) bool {
	r.planUpdate(ctx, plan, state, def, accountKnown, resp)
	r.planUnreportedOffer(ctx, plan, state, accountKnown, resp)
	if replacing(plan, state, resp) {
		r.warnCancels(state, true, resp)
	}
	if lost(ctx, req.Private) && changesMachine(plan, state) {
		resp.Diagnostics.AddError("Unable to change instance held by another state", tfdiag.Message(adapter.LostHold(state.ID.ValueString(), state.Name.ValueString(), r.registry.LabelID(state.Account.ValueString()))))
	}
	return !resp.Diagnostics.HasError()
}

// planUpdate is ModifyPlan's part for an existing machine.
func (r *Resource) planUpdate(ctx context.Context, plan, state *model, def adapter.Definition, accountKnown bool, resp *resource.ModifyPlanResponse) {
	// User data takes effect only at creation, so new user data is a new
	// machine. After an import the digest is unknown (null) and the
	// configured one is adopted without replacing.
	if !state.UserDataSHA256.IsNull() && !plan.UserDataSHA256.Equal(state.UserDataSHA256) {
		resp.RequiresReplace = append(resp.RequiresReplace, path.Root("user_data_sha256"))
	}
	if !plan.Account.Equal(state.Account) && accountKnown {
		// Re-pointed in place, the id (the machine's own) unchanged, once
		// the new account is proven to reach the machine (repoint.go); an
		// account unknown at plan is proven at apply, before Update writes
		// anything.
		r.repointAtPlan(ctx, plan, state, &resp.Diagnostics)
	}
	powerChange := !plan.Power.Equal(state.Power)
	if accountKnown {
		refuseIncapable(plan, state, def, powerChange, resp)
		refuseRestart(plan, state, def, &resp.Diagnostics)
	}
	if state.Claim.ValueString() == "" && changesMachine(plan, state) {
		// No claim yet (an imported machine, or one from before claims):
		// the update writes one. Without a change there is no update, so a
		// state that lost such a machine plans nothing.
		plan.Claim = types.StringUnknown()
	}
	// Addresses survive renames and label changes; a power switch may take
	// them away or bring new ones.
	if powerChange || plan.Power.IsUnknown() {
		plan.IPv4, plan.IPv6 = types.StringUnknown(), types.StringUnknown()
	} else {
		plan.IPv4, plan.IPv6 = state.IPv4, state.IPv6
	}
	if !plan.Managed.Equal(state.Managed) || !plan.UserDataSHA256.Equal(state.UserDataSHA256) || !plan.ID.Equal(state.ID) {
		// Changes the framework did not see; the machine is read back after
		// the update, so its state is known only then.
		plan.State, plan.RawState = types.StringUnknown(), types.StringUnknown()
	}
}

// refuseIncapable refuses, at plan, a change the account's adapter cannot
// make in place: a power switch, a rename, new labels, the mark on an
// imported machine.
func refuseIncapable(plan, state *model, def adapter.Definition, powerChange bool, resp *resource.ModifyPlanResponse) {
	caps := def.Capabilities
	if powerChange && known(plan.Power) && !caps.Has(adapter.CapPower) {
		resp.Diagnostics.AddAttributeError(path.Root(adapter.FieldPower), "Unable to switch power",
			fmt.Sprintf("power = %q asks to switch the machine %s, but the %s adapter cannot switch power. Set power back to %q.",
				plan.Power.ValueString(), plan.Power.ValueString(), def.Kind, state.Power.ValueString()))
	}
	if !caps.Has(adapter.CapUpdate) {
		if !plan.Name.Equal(state.Name) {
			resp.Diagnostics.AddAttributeError(path.Root(adapter.FieldName), "Unable to rename machine in place",
				fmt.Sprintf("name changes from %q to %q, but the %s adapter cannot rename a machine. Set the name back to %q.",
					state.Name.ValueString(), plan.Name.ValueString(), def.Kind, state.Name.ValueString()))
		}
		if !plan.Labels.Equal(state.Labels) {
			resp.Diagnostics.AddAttributeError(path.Root(adapter.FieldLabels), "Unable to change labels in place",
				fmt.Sprintf("the %s adapter cannot change labels; set labels to the machine's current labels.", def.Kind))
		}
		if !state.Managed.ValueBool() {
			resp.Diagnostics.AddAttributeError(path.Root("managed"), "Unable to mark imported machine",
				fmt.Sprintf("the %s adapter cannot write the managed mark onto an imported machine; remove it from state with `terraform state rm`.", def.Kind))
		}
	}
}

// checkCatalog asks the adapter whether the request would be accepted,
// user data included when it is known (a backend may take none, or only
// with settings the account lacks). User data is sensitive: the adapter's
// refusal never repeats it, and nor does anything added here. A
// refusal is an error on the attribute at fault, or on the account when the
// location is the account's own; a backend that cannot answer now, or a
// secret that cannot be resolved where the plan runs, only warns, since
// apply checks again (a saved plan may be applied where the secret is); a
// secret that arrives at apply skips the check.
func (r *Resource) checkCatalog(ctx context.Context, plan *model, userData types.String, def adapter.Definition, locationFromAccount bool, resp *resource.ModifyPlanResponse) {
	acc, _, err := r.accounts.Open(plan.Account.ValueString())
	if err == nil {
		labels, _ := plan.labels(ctx)
		err = acc.Validate(ctx, adapter.CreateRequest{
			Name:     plan.Name.ValueString(),
			OfferID:  plan.OfferID.ValueString(),
			Image:    plan.Image.ValueString(),
			Location: plan.Location.ValueString(),
			// Unknown until apply: Create sees it, and refuses it there.
			UserData: userData.ValueString(),
			Labels:   labels,
		})
	}
	const unchecked = "Instance not checked against the catalog"
	switch {
	case err == nil, tfdiag.UnknownUntilApply(err):
	case adapter.Unresolved(err):
		tfdiag.AddWarning(&resp.Diagnostics, nil, unchecked,
			fmt.Sprintf("The account's secret reference cannot be resolved where this plan runs, so %s "+
				"are checked at apply instead, which needs the secret: make it available where terraform apply runs, or fix the reference.",
				catalogValues(plan)), err)
	case adapter.Is(err, adapter.Transient), adapter.Is(err, adapter.RateLimited):
		tfdiag.AddWarning(&resp.Diagnostics, fields, unchecked,
			fmt.Sprintf("The catalog of the account could not be read at plan, so %s are checked at apply instead. %s",
				catalogValues(plan), tfdiag.PlanWayOut(err)), err)
	case adapter.FieldOf(err) == adapter.FieldLocation && locationFromAccount:
		// The user wrote no location here: the one to fix is the account's.
		tfdiag.AddError(&resp.Diagnostics, nil, "Unable to use instance configuration",
			fmt.Sprintf("Instance %q sets no location, so its account's location %s was used, and the backend does not know it. "+
				"Fix %s of the compute_provider_account, or set location on this instance.",
				plan.Name.ValueString(), adapter.Quoted(adapter.Redacted(plan.Location.ValueString())), locationSetting(def)), err)
	case secretSetting(def, err) != "":
		// The account's secret, judged as the account's plan judges it
		// (internal/account checkAtPlan): it may be right where the apply
		// runs, so it only warns, and that apply then fails at the account
		// before this instance is created. A plain setting the backend
		// refuses is wrong wherever the plan runs: an error, as there.
		tfdiag.AddWarning(&resp.Diagnostics, nil, unchecked,
			fmt.Sprintf("The account refuses its setting %s, so %s are checked at apply instead; "+
				"that apply fails at compute_provider_account until the setting is fixed. %s", secretSetting(def, err),
				catalogValues(plan), tfdiag.WayOut(err)), err)
	default:
		tfdiag.AddError(&resp.Diagnostics, fields, "Unable to use instance configuration",
			fmt.Sprintf("The account refuses to create instance %q as configured. %s", plan.Name.ValueString(), tfdiag.WayOut(err)), err)
	}
}

// catalogValues names the values Validate checks against the catalog, for
// a warning that they are checked at apply instead: an instance without a
// location (a backend whose machines have none) names none.
func catalogValues(plan *model) string {
	if plan.Location.ValueString() == "" {
		return fmt.Sprintf("offer_id %q and image %q", plan.OfferID.ValueString(), plan.Image.ValueString())
	}
	return fmt.Sprintf("offer_id %q, image %q and location %q", plan.OfferID.ValueString(), plan.Image.ValueString(), plan.Location.ValueString())
}

// secretSetting names the account's secret setting (BLOCK.SETTING) an
// InvalidConfig error is about; "" when the error is of another code or
// about anything else. No secret setting shares its name with a field of
// this resource: user data is the instance's, never the account's.
func secretSetting(def adapter.Definition, err error) string {
	if !adapter.Is(err, adapter.InvalidConfig) {
		return ""
	}
	if s, ok := def.SettingNamed(adapter.FieldOf(err)); ok && s.IsSecret() {
		return def.BlockName() + "." + s.Name
	}
	return ""
}

// locationSetting names the account setting that holds the default
// location, as the configuration spells it: BLOCK.SETTING.
func locationSetting(def adapter.Definition) string {
	if s, ok := def.Setting(adapter.RoleLocation); ok {
		return def.BlockName() + "." + s.Name
	}
	return "the default location"
}

// changesMachine reports whether the plan changes what Update acts on.
func changesMachine(plan, state *model) bool {
	return !plan.Name.Equal(state.Name) || !plan.Labels.Equal(state.Labels) || !plan.Power.Equal(state.Power) ||
		!plan.Managed.Equal(state.Managed) || !plan.UserDataSHA256.Equal(state.UserDataSHA256) || !plan.Account.Equal(state.Account) ||
		restartRequested(*plan, *state)
}
