package instance

import (
	"context"
	"errors"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/power"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
	"github.com/seedcompute/terraform-provider-compute/internal/tfidentity"
	"github.com/seedcompute/terraform-provider-compute/internal/tfmodel"
)

// Update renames, relabels, marks an imported machine and switches power,
// and records the machine as the backend last answered: the write's answer,
// or the wait for the power state, so an update costs one read and one
// write. It acts only while this state holds the machine (adapter.Held); the
// first apply after an import writes the mark and this state's claim.
func (r *Resource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	ctx = r.accounts.Logging(ctx)
	defer tfidentity.Follow(ctx, resp.Identity, &resp.Diagnostics, &resp.State)
	const summary = "Unable to update instance"
	var plan, state model
	resp.Diagnostics.Append(tfmodel.Get(ctx, req.Plan.Schema.Type(), req.Plan.Raw, &plan)...)
	resp.Diagnostics.Append(tfmodel.Get(ctx, req.State.Schema.Type(), req.State.Raw, &state)...)
	var userData types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(adapter.FieldUserData), &userData)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, d := plan.Timeouts.Update(ctx, defaultUpdateTimeout)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	acc, _, scope, ok := r.open(&resp.Diagnostics, summary, plan.Account)
	if !ok {
		return
	}
	machineID, ok := machineOf(&resp.Diagnostics, summary, state.ID)
	if !ok || !settledAtPlan(&resp.Diagnostics, summary, plan, state, machineID) {
		return
	}
	current, ok := r.repointAtApply(ctx, acc, machineID, plan, state, adapter.IdempotencyKey(scope, plan.Name.ValueString()), &resp.Diagnostics)
	if !ok || !offerFits(&resp.Diagnostics, summary, plan, state, current) {
		return
	}
	m, claim, ok := r.writeChanges(ctx, acc, machineID, &plan, &state, current, scope, userData, &resp.Diagnostics)
	if !ok {
		return
	}
	plan.Claim = types.StringValue(claim)
	resp.Diagnostics.Append(endImport(ctx, resp.Private)...)
	if goal, change := powerChange(ctx, plan, state, current); change {
		// The wait for the new power state reads the machine last.
		if m, ok = r.updatePower(ctx, acc, machineID, plan, goal, &resp.Diagnostics); !ok {
			return
		}
	}
	resp.Diagnostics.Append(plan.setMachine(ctx, m)...)
	resp.Diagnostics.Append(tfmodel.Set(ctx, &resp.State, resp.State.Schema.Type(), &plan)...)
}

// readHeld reads the machine as it is now, refusing it when another state
// holds it; key is the create key of the configuration the update writes.
func (r *Resource) readHeld(ctx context.Context, acc *adapter.Cached, machineID string, state model, key string, diags *diag.Diagnostics) (adapter.Machine, bool) {
	current, err := r.heldMachine(ctx, acc, machineID, state.Name.ValueString(), state.Claim.ValueString(), key)
	if err != nil {
		tfdiag.AddError(diags, fields, "Unable to update instance",
			fmt.Sprintf("Machine %s (%q) on %s was not changed. %s", machineID, state.Name.ValueString(),
				r.registry.DescribeID(state.Account.ValueString()), wayOutFor(err, machineID)), err)
		return current, false
	}
	return current, true
}

// writeChanges writes the new name, labels and mark, if any, starting from
// the read just made, and returns the machine as the write answered (current
// when nothing was written) and the claim the state keeps: the one it had,
// or the first one, written with the mark.
func (r *Resource) writeChanges(ctx context.Context, acc *adapter.Cached, machineID string, plan, state *model, current adapter.Machine, scope string, userData types.String, diags *diag.Diagnostics) (adapter.Machine, string, bool) {
	claim := state.Claim.ValueString()
	m := current
	ureq, err := r.changes(ctx, plan, state, current, scope, userData, &claim)
	if err == nil && (ureq.Name != nil || ureq.Labels != nil || ureq.Mark != nil) {
		ureq.Current = &current
		err = adapter.Retry(ctx, r.clock(), adapter.DefaultBackoff, fmt.Sprintf("update machine %s", machineID), func(ctx context.Context) error {
			var err error
			m, err = acc.Update(ctx, machineID, ureq)
			return err
		})
	}
	if err != nil {
		tfdiag.AddError(diags, fields, "Unable to update instance",
			fmt.Sprintf("Updating machine %s (%q) failed. %s", machineID, state.Name.ValueString(), wayOutFor(err, machineID)), err)
		return m, "", false
	}
	return m, claim, true
}

// settledAtPlan refuses an offer_id or image that was unknown at plan (see
// replaceWhenKnown) and differs now: only a plan that knows it can replace
// the machine.
func settledAtPlan(diags *diag.Diagnostics, summary string, plan, state model, machineID string) bool {
	for _, f := range []struct {
		attr        string
		plan, state types.String
	}{{adapter.FieldOfferID, plan.OfferID, state.OfferID}, {adapter.FieldImage, plan.Image, state.Image}} {
		if !f.plan.Equal(f.state) && !unreported(path.Root(f.attr), f.state) {
			diags.AddAttributeError(path.Root(f.attr), summary,
				fmt.Sprintf("%s changes from %q to %q, a value that was not known when the plan was made, so the plan could not replace "+
					"machine %s; it was left as it was. Run terraform apply again: the next plan knows the value and replaces the machine.",
					f.attr, f.state.ValueString(), f.plan.ValueString(), machineID))
			return false
		}
	}
	return true
}

// updatePower switches the machine on or off, or restarts it, through the
// one power path (powerTo), and returns the machine as its wait last read it.
func (r *Resource) updatePower(ctx context.Context, acc *adapter.Cached, machineID string, plan model, goal power.Goal, diags *diag.Diagnostics) (adapter.Machine, bool) {
	m, err := r.powerPath().To(ctx, acc, machineID, goal, plan.shutdownTimeout(), diags)
	if err != nil {
		what := "Switching machine %s (%q) " + goal.String()
		if goal == power.Restarted {
			what = "Restarting machine %s (%q)"
		}
		tfdiag.AddError(diags, fields, "Unable to update instance",
			fmt.Sprintf(what+" failed. %s", machineID, plan.Name.ValueString(), wayOutFor(err, machineID)), err)
		return m, false
	}
	return m, true
}

// changes is the update request for what the plan changes. The mark carries
// the create key, which follows the name: a machine renamed from web-1 must
// not be found by a later create of web-1. An imported machine, or one whose
// state has no claim yet, gets its first mark and a claim (written back
// through *claim), fingerprinted from the configuration it is now managed
// with; one that lost its mark since this state claimed it gets none.
func (r *Resource) changes(ctx context.Context, plan, state *model, current adapter.Machine, scope string, userData types.String, claim *string) (adapter.UpdateRequest, error) {
	var ureq adapter.UpdateRequest
	name := plan.Name.ValueString()
	if !plan.Name.Equal(state.Name) {
		ureq.Name = &name
	}
	if !plan.Labels.Equal(state.Labels) {
		labels, d := plan.labels(ctx)
		if d.HasError() {
			return ureq, adapter.Errorf(adapter.InvalidInput, "the planned labels cannot be read").WithField(adapter.FieldLabels)
		}
		if labels == nil {
			labels = map[string]string{}
		}
		ureq.Labels = labels
	}
	// A machine that lost its mark while this state held it (the state has
	// a claim) is not marked again: only an import, which leaves no claim,
	// brings an unmarked machine under management, and the adapter refuses
	// to power or delete one, with its own way out. Where the mark lives in
	// the name, it is written back (remark.go).
	lostMark := !current.Managed && *claim != "" && !r.markLost(plan.Account.ValueString(), current, *claim)
	if !lostMark && (!current.Managed || ureq.Name != nil || *claim == "") {
		fp := current.Fingerprint
		if !current.Managed || fp == "" {
			fp = adapter.Fingerprint(adapter.CreateRequest{
				OfferID:  plan.OfferID.ValueString(),
				Image:    plan.Image.ValueString(),
				Location: plan.Location.ValueString(),
				UserData: userData.ValueString(),
			})
		}
		// The first claim is written unconfirmed, as a create's is: should
		// this apply be killed before its state is saved, the rerun takes
		// the machine up again (adapter.Resumable), and the next refresh
		// confirms it.
		first := *claim == ""
		if first {
			*claim = adapter.NewClaimAt(r.clock().Now())
		}
		ureq.Mark = &adapter.Mark{Key: adapter.IdempotencyKey(scope, name), Fingerprint: fp, Claim: *claim, Unconfirmed: first}
	}
	return ureq, nil
}

// heldMachine reads the machine directly and refuses it when another state
// has taken it over since this one created or adopted it. An update (key,
// the create key of the configuration it writes, set) by a state without a
// claim also takes up a machine whose first mark it may have written itself
// (adapter.ResumesAs); a delete ("" key) never does, since that mark may as
// well be another state's.
func (r *Resource) heldMachine(ctx context.Context, acc *adapter.Cached, id, name, claim, key string) (adapter.Machine, error) {
	m, err := r.fresh(ctx, acc, id)
	if err != nil {
		return m, err
	}
	now := r.clock().Now()
	switch {
	case adapter.Held(m, claim), key != "" && adapter.ResumesAs(m, claim, key, now):
		return m, nil
	case key == "" && adapter.Resumable(m, claim, now):
		return m, adapter.UnsavedClaim(id, name, "deleted")
	}
	return m, adapter.LostHold(id, name, "")
}

// wayOutFor adds the specific way out of a refusal to touch a machine the
// provider does not manage, and of a machine that vanished since the refresh.
func wayOutFor(err error, machineID string) string {
	switch {
	case errors.Is(err, adapter.ErrLostHold):
		// The message says what to do.
		return ""
	case adapter.Is(err, adapter.AccessDenied):
		return fmt.Sprintf("The backend or the provider refuses to touch machine %s: either it does not carry the provider's mark "+
			"(it was imported and no apply has marked it yet, or someone else created it), or the credentials may not change it. "+
			"After an import, run terraform apply once so the mark is written, with offer_id, image and location set to the "+
			"machine's own values: a plan that replaces an imported machine must delete it first, which is refused until it is marked. "+
			"To let Terraform forget the machine without touching it, run `terraform state rm` on this resource.", machineID)
	case adapter.IsNotFound(err):
		return fmt.Sprintf("Machine %s no longer exists. Run terraform plan (or terraform apply -refresh-only): the refresh removes it "+
			"from the state, and the next apply creates it anew.", machineID)
	}
	return tfdiag.WayOut(err)
}
