package account

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
	"github.com/seedcompute/terraform-provider-compute/internal/tfstate"
)

// defaultTimeout bounds a health check, retries included, on create, read
// and update alike unless the timeouts block says otherwise: the check is
// one cheap call, so two minutes is long enough to ride out a short outage.
const defaultTimeout = 2 * time.Minute

// Resource is compute_provider_account.
type Resource struct {
	registry *adapter.Registry
	accounts *adapter.Accounts // nil until the provider is configured
}

var (
	_ resource.ResourceWithConfigure      = (*Resource)(nil)
	_ resource.ResourceWithValidateConfig = (*Resource)(nil)
	_ resource.ResourceWithModifyPlan     = (*Resource)(nil)
	_ resource.ResourceWithImportState    = (*Resource)(nil)
	_ resource.ResourceWithUpgradeState   = (*Resource)(nil)
)

// New returns the resource for the adapter kinds in reg.
func New(reg *adapter.Registry) resource.Resource { return &Resource{registry: reg} }

func (r *Resource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_provider_account"
}

func (r *Resource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = r.schema(ctx)
}

// UpgradeState reads states of version 0, whose id was the locator's query
// form without the name.
func (r *Resource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{0: tfstate.Rewrite(tfstate.AccountID)}
}

func (r *Resource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if req.ProviderData == nil {
		return
	}
	a, ok := req.ProviderData.(*adapter.Accounts)
	if !ok {
		resp.Diagnostics.AddError("Unable to configure provider account", fmt.Sprintf("compute_provider_account expected *adapter.Accounts, got %T; this is a bug in the provider.", req.ProviderData))
		return
	}
	r.accounts = a
}

// ValidateConfig checks what can be checked without the backend: one adapter
// block, well-formed secret references, safe settings.
func (r *Resource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	set, unknown, diags := r.blocks(ctx, req.Config)
	resp.Diagnostics.Append(diags...)
	if diags.HasError() {
		return
	}
	names := r.blockList()
	switch {
	case len(set) == 0 && !unknown:
		resp.Diagnostics.AddError("Unable to find adapter block",
			"compute_provider_account needs exactly one adapter block; set one of "+names+", e.g. "+r.example()+".")
		return
	case len(set) > 1:
		resp.Diagnostics.AddAttributeError(set[1].path(), "Unable to use two adapter blocks",
			fmt.Sprintf("compute_provider_account sets both %s and %s; an account has exactly one adapter. Remove one, or write a second account.",
				set[0].name(), set[1].name()))
		return
	}
	for _, b := range set {
		validateSettings(b, &resp.Diagnostics)
	}
}

// validateSettings checks a block's known values: secret references are
// references, other values pass their setting's own check.
func validateSettings(b block, diags *diag.Diagnostics) {
	for _, s := range b.def.Settings {
		v, ok := b.values[s.Name]
		if !ok || v.IsNull() || v.IsUnknown() || v.ValueString() == "" {
			continue
		}
		p := b.path().AtName(s.Name)
		if s.IsSecret() {
			if _, _, err := adapter.ParseRef(v.ValueString()); err != nil {
				// ParseRef never repeats a value that may be a pasted secret,
				// and AddRefusal keeps Terraform from printing its line.
				tfdiag.AddRefusal(diags, p, v.ValueString(), true, "Unable to use secret reference",
					fmt.Sprintf("%s.%s must be a secret reference, never the secret: %s", b.name(), s.Name, tfdiag.Message(err)))
			}
			continue
		}
		if s.Check != nil {
			if err := s.Check(v.ValueString()); err != nil {
				// Redacted: a URL's user part, path, query or fragment may
				// hold a credential, and the value of a sensitive
				// variable reaches the provider without its mark.
				tfdiag.AddRefusal(diags, p, v.ValueString(), false, "Unable to use account setting",
					fmt.Sprintf("%s is refused: %s", s.Shown(b.name()+"."+s.Name, v.ValueString()), tfdiag.Message(err)))
			}
		}
	}
}

// example is the smallest block of the registry's example kind
// (Registry.Example), for messages: BLOCK = { token = "env://KIND_TOKEN" }.
func (r *Resource) example() string {
	def, ok := r.registry.Example()
	if !ok {
		return "an adapter block"
	}
	var parts []string
	for _, s := range def.Settings {
		switch {
		case s.Required && s.IsSecret():
			parts = append(parts, fmt.Sprintf("%s = %q", s.Name, exampleRef(def, s)))
		case s.Required:
			parts = append(parts, fmt.Sprintf("%s = %q", s.Name, "…"))
		}
	}
	return def.BlockName() + " = { " + strings.Join(parts, ", ") + " }"
}

func (r *Resource) blockList() string {
	var names []string
	for _, def := range r.registry.Definitions() {
		names = append(names, def.BlockName())
	}
	return strings.Join(names, ", ")
}

// ModifyPlan derives the id (the locator) and the settings' defaults from the
// configuration, so that both are known at plan time: instance ids and
// import blocks are built from the id before anything is applied.
func (r *Resource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	set, _, diags := r.blocks(ctx, req.Config)
	resp.Diagnostics.Append(diags...)
	if diags.HasError() || len(set) != 1 {
		return
	}
	b := set[0]
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("adapter"), types.StringValue(b.kind))...)
	if b.unknown {
		warnSettings(&resp.Diagnostics, b, knownSettings(b, r.registry.Environment()))
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("id"), types.StringUnknown())...)
		// A setting the configuration leaves out takes its default whatever
		// the unknown values turn out to be; left to the schema, it would
		// keep its prior value in the plan and differ from it after apply.
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, b.path(), planned(b, r.registry.Environment()))...)
		return
	}
	loc, err := r.registry.Locate(b.kind, b.settings())
	if err != nil {
		addSettingError(&resp.Diagnostics, b, "Unable to use account configuration", "", err)
		return
	}
	warnSettings(&resp.Diagnostics, b, loc.Settings)
	resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, b.path(), object(b.def, loc.Settings))...)
	var name types.String
	resp.Diagnostics.Append(req.Plan.GetAttribute(ctx, path.Root("name"), &name)...)
	if name.IsUnknown() {
		// The name is part of the id, which is then known only at apply.
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("id"), types.StringUnknown())...)
	} else {
		// The endpoint in canonical form: a trailing slash is no other
		// account.
		loc.Name = name.ValueString()
		resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("id"), types.StringValue(r.idOf(loc, priorID(ctx, req.State))))...)
	}
	fresh := req.State.Raw.IsNull()
	if !fresh {
		prior := types.StringValue(priorID(ctx, req.State))
		id := r.idOf(loc, prior.ValueString())
		switch {
		case !r.registry.SameAccount(prior.ValueString(), id):
			// A new locator is a new health question.
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("health"), types.ObjectUnknown(healthTypes))...)
			fresh = true
		case prior.ValueString() != id && !name.IsUnknown():
			// The same account under a new id (renamed, its endpoint
			// spelled anew, a state of an older version): no question for
			// the plan, but the apply that records the id checks again,
			// so its health is known only then. The configuration may
			// not differ at all (an upgraded state), so the framework has
			// not marked it unknown.
			resp.Diagnostics.Append(resp.Plan.SetAttribute(ctx, path.Root("health"), types.ObjectUnknown(healthTypes))...)
		}
	}
	if fresh {
		if r.warnUnresolvable(ctx, &resp.Diagnostics, b, loc) {
			r.checkAtPlan(ctx, &resp.Diagnostics, b, loc)
		}
	}
}

// warnUnresolvable resolves a new locator's secret references once and
// warns about those that cannot be resolved here, which the apply's health
// check would otherwise be the first to say. Only a warning: a saved plan
// may be applied where the secret is. The value is dropped at once.
// It reports whether every secret resolved.
func (r *Resource) warnUnresolvable(ctx context.Context, diags *diag.Diagnostics, b block, loc adapter.Locator) bool {
	if r.accounts == nil || r.accounts.Env.Secrets == nil {
		return false
	}
	resolved := true
	for _, s := range b.def.Settings {
		ref := loc.Settings[s.Name]
		if !s.IsSecret() || ref == "" {
			continue
		}
		_, err := r.accounts.Env.Secrets.Resolve(ctx, ref)
		if err != nil {
			resolved = false
		}
		if err == nil || tfdiag.UnknownUntilApply(err) {
			continue
		}
		wayOut := ": set the environment variable or file in the environment that runs Terraform, add the entry to the " +
			"provider block's secrets, or fix the reference."
		if leftOut(b, s) {
			wayOut = ". " + leftOutWayOut(b, s)
		}
		diags.AddAttributeWarning(b.path().AtName(s.Name), "Secret reference cannot be resolved",
			fmt.Sprintf("%s cannot be resolved here: %s\n\nThe apply's health check will fail unless the secret is there when "+
				"terraform apply runs%s", adapter.Show(b.name()+"."+s.Name, adapter.Redacted(ref)), tfdiag.Message(err), wayOut))
	}
	return resolved
}

// planCheckTimeout bounds the plan-time health check: a backend that is slow
// to answer must not hold up a plan, and apply checks again anyway.
const planCheckTimeout = 30 * time.Second

// checkAtPlan runs the account's health check once for a new locator, so
// that a setting the backend refuses (a location it does not know, an
// endpoint that does not serve its API) is an error on that setting at plan
// time, before anything that uses the account is planned against it. Other
// failures are left to the apply's health check: a refused token or an
// unreachable backend may be fine where a saved plan is applied.
func (r *Resource) checkAtPlan(ctx context.Context, diags *diag.Diagnostics, b block, loc adapter.Locator) {
	acc, _, err := r.accounts.Open(loc.String())
	if err == nil {
		ctx, cancel := context.WithTimeout(ctx, planCheckTimeout)
		err = acc.Check(ctx)
		cancel()
	}
	if err == nil || adapter.Unresolved(err) || tfdiag.UnknownUntilApply(err) {
		// An unresolvable secret has its own warning.
		return
	}
	field := adapter.FieldOf(err)
	i := slices.IndexFunc(b.def.Settings, func(s adapter.Setting) bool { return s.Name == field })
	if !adapter.Is(err, adapter.InvalidConfig) || i < 0 || b.def.Settings[i].IsSecret() {
		// Refused credentials, a backend that is down or silent: the
		// plan goes on, since the apply may run where things are right,
		// but the user hears of it now rather than after the apply starts.
		on := ""
		if i >= 0 {
			on = ", on " + settingOrName(b, err)
		}
		tfdiag.AddWarning(diags, nil, "Account not checked",
			fmt.Sprintf("The %s adapter's health check of compute_provider_account failed at plan%s, so its apply, and every "+
				"instance on it, will fail unless this is mended first. %s", b.kind, on, tfdiag.PlanWayOut(err)), err)
		return
	}
	addSettingError(diags, b, "Unable to use account configuration",
		fmt.Sprintf("The %s adapter refuses %s of compute_provider_account.", b.kind, settingOrName(b, err)), err)
}

// settingOrName is settingAt, or the setting's name alone when the
// configuration leaves it to its default.
func settingOrName(b block, err error) string {
	if s := settingAt(b, err); s != "" {
		return s
	}
	return b.name() + "." + adapter.FieldOf(err)
}

func addSettingError(diags *diag.Diagnostics, b block, summary, detail string, err error) {
	at := func(field string) (path.Path, bool) {
		if _, ok := b.values[field]; ok {
			return b.path().AtName(field), true
		}
		return path.Empty(), false
	}
	if detail == "" {
		detail = fmt.Sprintf("The %s block of compute_provider_account is refused.", b.name())
		if s := settingAt(b, err); s != "" {
			detail = fmt.Sprintf("%s of compute_provider_account is refused.", s)
		}
	}
	tfdiag.AddError(diags, at, summary, detail, err)
}

// settingAt names the setting an error is about, with its value unless it
// is secret, as `BLOCK.SETTING = "xyz9"`; "" when the error names
// none. Terraform shows such diagnostics at the resource block, since it
// cannot point into an object value, so the text has to name the setting.
func settingAt(b block, err error) string {
	field := adapter.FieldOf(err)
	v, ok := b.values[field]
	if field == "" || !ok {
		return ""
	}
	name := b.name() + "." + field
	i := slices.IndexFunc(b.def.Settings, func(s adapter.Setting) bool { return s.Name == field })
	if v.IsNull() || v.IsUnknown() || i < 0 || b.def.Settings[i].IsSecret() {
		return name
	}
	return b.def.Settings[i].Shown(name, v.ValueString())
}

// idOf is the account id of loc: its canonical form (Registry.Canonical),
// or prior, the id in state, when prior is that same form spelt otherwise
// (a key list respaced, in a state written before it was canonical), so
// such a state plans no change.
func (r *Resource) idOf(loc adapter.Locator, prior string) string {
	id := r.registry.Canonical(loc).String()
	if p, err := adapter.ParseLocator(prior); err == nil && r.registry.Canonical(p).String() == id {
		return prior
	}
	return id
}

// priorID is the id in state, "" for none.
func priorID(ctx context.Context, state tfsdk.State) string {
	if state.Raw.IsNull() {
		return ""
	}
	var prior types.String
	state.GetAttribute(ctx, path.Root("id"), &prior)
	return prior.ValueString()
}
