package account

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
	"github.com/seedcompute/terraform-provider-compute/internal/tftimeouts"
)

func (r *Resource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	r.apply(ctx, req.Config, req.Plan, nil, &resp.State, &resp.Diagnostics, "create")
}

func (r *Resource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	var prior types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("id"), &prior)...)
	r.apply(ctx, req.Config, req.Plan, &prior, &resp.State, &resp.Diagnostics, "update")
}

// stateSetter is tfsdk.State's setter, shared by Create and Update.
type stateSetter interface {
	SetAttribute(ctx context.Context, p path.Path, val any) diag.Diagnostics
}

// apply records the planned account after its health check, which rides out
// a failing backend until the create or update timeout (op names which). A
// failed check fails the apply when the locator is new (a new account, or
// new settings), since the user is asking whether this account works;
// renaming an account whose backend is down merely records the outage.
func (r *Resource) apply(ctx context.Context, config, plan getter, prior *types.String, state stateSetter, diags *diag.Diagnostics, op string) {
	summary := "Unable to " + op + " provider account"
	if r.accounts == nil {
		diags.AddError(summary, "The provider is not configured; this is a bug in the provider.")
		return
	}
	var name types.String
	diags.Append(plan.GetAttribute(ctx, path.Root("name"), &name)...)
	var to timeouts.Value
	diags.Append(plan.GetAttribute(ctx, path.Root("timeouts"), &to)...)
	timeout, d := to.Create(ctx, defaultTimeout)
	if op == "update" {
		timeout, d = to.Update(ctx, defaultTimeout)
	}
	diags.Append(d...)
	set, _, d := r.blocks(ctx, plan)
	diags.Append(d...)
	if diags.HasError() {
		return
	}
	if len(set) != 1 {
		diags.AddError(summary, "compute_provider_account needs exactly one adapter block; set one of "+r.blockList()+".")
		return
	}
	b := set[0]
	if written, _, _ := r.blocks(ctx, config); len(written) == 1 {
		b.written = written[0].values
	}
	loc, err := r.registry.Locate(b.kind, b.settings())
	if err != nil {
		addSettingError(diags, b, summary, "", err)
		return
	}
	warnSettings(diags, b, loc.Settings)
	loc.Name = name.ValueString()
	id := r.registry.Canonical(loc).String()
	if prior != nil {
		id = r.idOf(loc, prior.ValueString())
	}
	health, err := r.check(ctx, id, timeout, applyCheck)
	if err != nil && (prior == nil || !r.registry.SameAccount(prior.ValueString(), id)) {
		r.addCheckError(ctx, diags, b, loc, name.ValueString(), op, err)
		return
	}
	diags.Append(state.SetAttribute(ctx, path.Root("name"), name)...)
	diags.Append(state.SetAttribute(ctx, path.Root("timeouts"), to)...)
	diags.Append(state.SetAttribute(ctx, path.Root("health"), health)...)
	r.record(ctx, state, diags, b.def, loc, id)
}

// record writes what the locator says into state: the id, the adapter, its
// block with the normalized settings, and every other block null.
func (r *Resource) record(ctx context.Context, state stateSetter, diags *diag.Diagnostics, def adapter.Definition, loc adapter.Locator, id string) {
	diags.Append(state.SetAttribute(ctx, path.Root("id"), types.StringValue(id))...)
	diags.Append(state.SetAttribute(ctx, path.Root("adapter"), types.StringValue(def.Kind))...)
	for p, v := range r.nullBlocks(def.Kind) {
		diags.Append(state.SetAttribute(ctx, path.Root(p), v)...)
	}
	diags.Append(state.SetAttribute(ctx, path.Root(def.BlockName()), object(def, loc.Settings))...)
}

// applyCheck is check's policy for an apply: no plan-time budget for an
// unreachable endpoint, and the proof that the credentials may create.
var applyCheck *adapter.ReadPolicy

// check runs the account's health check, retrying a backend that fails or
// asks to slow down until timeout, and returns the health value; err is the
// failure, already reflected in the value. A refresh passes its read
// policy, which gives an endpoint that cannot be reached at all a short
// budget of its own (adapter.Cached.PlanRead); an apply passes applyCheck
// (nil), which retries it like any failure until the timeout and adds the
// adapter's proof that the credentials may create (adapter.WriteChecker):
// the proof may send a write, and plans and refreshes stay with the read.
// reachable says whether the read passed, so a read-only token shows as a
// backend that answered, with the refusal as the reason.
func (r *Resource) check(ctx context.Context, id string, timeout time.Duration, refresh *adapter.ReadPolicy) (types.Object, error) {
	ctx = r.accounts.Logging(ctx)
	now := func() string { return r.accounts.Env.Clock.Now().UTC().Format(time.RFC3339) }
	acc, _, err := r.accounts.Open(id)
	reached := false
	if err == nil {
		ctx, cancel := context.WithTimeout(ctx, timeout)
		if refresh != nil {
			err = acc.PlanRead(ctx, *refresh, "health check", acc.Check)
		} else {
			err = adapter.Retry(ctx, r.accounts.Env.Clock, adapter.DefaultBackoff, "health check", acc.Check)
		}
		reached = err == nil
		if reached && refresh == nil {
			err = adapter.Retry(ctx, r.accounts.Env.Clock, adapter.DefaultBackoff, "write check", acc.CheckWrite)
		}
		cancel()
	}
	if err != nil {
		return healthValue(reached, tfdiag.Message(err), now()), err
	}
	return healthValue(true, "", now()), nil
}

// addCheckError reports a failed health check of an apply; op is create or
// update, whose timeout the check had.
func (r *Resource) addCheckError(ctx context.Context, diags *diag.Diagnostics, b block, loc adapter.Locator, name, op string, err error) {
	summary := "Unable to " + op + " provider account"
	detail := fmt.Sprintf("The health check of account %q (adapter %s) failed.", name, b.kind)
	if s := settingAt(b, err); s != "" {
		detail = fmt.Sprintf("The health check of account %q (adapter %s) failed on %s.", name, b.kind, s)
	}
	switch {
	case ctx.Err() != nil:
		// Terraform stopped the command (Ctrl-C) or ran out of time: the
		// backend is not to blame.
		detail = fmt.Sprintf("The health check of account %q (adapter %s) was interrupted before it finished, because the "+
			"command was stopped; nothing was recorded. Run the command again.", name, b.kind)
	case adapter.Is(err, adapter.Transient), adapter.Is(err, adapter.RateLimited):
		where := "the backend is"
		if ep, ok := b.def.Setting(adapter.RoleEndpoint); ok && b.values[ep.Name].ValueString() != "" {
			where = fmt.Sprintf("%s.%s (%s) is right and", b.name(), ep.Name, adapter.Redacted(b.values[ep.Name].ValueString()))
		}
		what := fmt.Sprintf("the backend failed or could not be reached, and kept failing while the check was retried until timeouts.%s", op)
		more := fmt.Sprintf(", or raise timeouts.%s to retry for longer", op)
		switch {
		case adapter.NoAnswer(err):
			what, more = "the backend took the request but never answered it, not even when it was sent once more, so it was not retried further", ""
		case adapter.LimitPastTimeout(err):
			what, more = fmt.Sprintf("the backend's rate limit lets the next request through only after timeouts.%s ends, so the check "+
				"failed at once instead of waiting; a longer timeout would not help", op), " after the time the error below names"
		case adapter.Is(err, adapter.RateLimited):
			what = fmt.Sprintf("the backend asked to slow down, and still did when the check had been retried until timeouts.%s", op)
		}
		detail = fmt.Sprintf("The health check of account %q (adapter %s) failed: %s. Check that %s reachable from where Terraform runs, "+
			"then run the command again%s.", name, b.kind, what, where, more)
	case adapter.Is(err, adapter.AccessDenied):
		detail = fmt.Sprintf("The health check of account %q (adapter %s) failed: %s was refused. "+
			"Check that the reference points at a valid, unexpired secret with the needed permissions.",
			name, b.kind, secretRefs(b.def, loc.Settings))
		if s := firstSecret(b.def); s != "" && adapter.FieldOf(err) == "" {
			diags.AddAttributeError(b.path().AtName(s), summary, detail+"\n\n"+tfdiag.Message(err))
			return
		}
	case adapter.Unresolved(err):
		if s, ok := leftOutSecret(b, err); ok {
			detail = fmt.Sprintf("The health check of account %q (adapter %s) failed: its %s names no secret here. %s",
				name, b.kind, s.Name, leftOutWayOut(b, s))
			break
		}
		detail = withWayOut(detail, err)
	default:
		detail = withWayOut(detail, err)
	}
	addSettingError(diags, b, summary, detail, err)
}

// withWayOut appends the class's way out to detail, when the class has one.
func withWayOut(detail string, err error) string {
	if w := tfdiag.WayOut(err); w != "" {
		return detail + " " + w
	}
	return detail
}

// Read re-runs the health check, riding out a failing backend until the read
// timeout. It never fails because the backend is down: the outage is what
// health reports. It only reads: whether the credentials may create is
// proven by the apply.
func (r *Resource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	if r.accounts == nil {
		return
	}
	var id types.String
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("id"), &id)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var to timeouts.Value
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("timeouts"), &to)...)
	timeout, d := to.Read(ctx, defaultTimeout)
	resp.Diagnostics.Append(d...)
	refresh := adapter.PlanReads(tftimeouts.UnreachableOf(to.Object, adapter.DefaultUnreachable))
	health, err := r.check(ctx, id.ValueString(), timeout, &refresh)
	if tfdiag.UnknownUntilApply(err) {
		// The secret arrives at apply; the last known health still stands.
		return
	}
	var prior types.Object
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("health"), &prior)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("health"), keepCheckedAt(prior, health))...)
}

// keepCheckedAt keeps the prior check's time while reachable and reason are
// unchanged: a timestamp that moved on every refresh would show as a change
// outside Terraform in every plan that reads health, so checked_at marks the
// check that first saw the current health.
func keepCheckedAt(prior, next types.Object) types.Object {
	if prior.IsNull() || prior.IsUnknown() {
		return next
	}
	p, n := prior.Attributes(), next.Attributes()
	if p["reachable"].Equal(n["reachable"]) && p["reason"].Equal(n["reason"]) {
		return prior
	}
	return next
}

// Delete forgets the account; nothing remote belongs to it.
func (r *Resource) Delete(context.Context, resource.DeleteRequest, *resource.DeleteResponse) {}

// ImportState takes the account's id (its locator) and the name it holds;
// an id of the older form, which has none, leaves the name null until the
// configuration's name is applied. That apply changes nothing remote, and
// its health check cannot fail it, since the settings are unchanged.
func (r *Resource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	l, err := adapter.ParseLocator(req.ID)
	if err == nil {
		l, err = r.registry.Checked(l)
	}
	if err != nil {
		resp.Diagnostics.AddError("Unable to import provider account",
			fmt.Sprintf("The import id must be a compute_provider_account id (a JSON object, as its id attribute shows): %s", tfdiag.Message(err)))
		return
	}
	def, _ := r.registry.Definition(l.Kind)
	if l.Name != "" {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), types.StringValue(l.Name))...)
	}
	r.record(ctx, &resp.State, &resp.Diagnostics, def, l, r.registry.Canonical(l).String())
}
