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
	"github.com/seedcompute/terraform-provider-compute/internal/power"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
	"github.com/seedcompute/terraform-provider-compute/internal/tfidentity"
	"github.com/seedcompute/terraform-provider-compute/internal/tfmodel"
)

// Create asks for the machine with a key derived from the account's scope
// and the name and a fresh claim, saves its id and claim the moment the
// backend answers, and then waits for it to settle. A wait that fails, or a
// create the adapter reports failed after it made the machine, leaves the id
// in state, so Terraform taints the machine instead of losing it; an
// apply interrupted before Terraform persisted the state finds the machine
// again by its key and adopts it, writing its own claim (see
// docs/guides/interrupted-applies.md).
func (r *Resource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	ctx = r.accounts.Logging(ctx)
	defer tfidentity.Follow(ctx, resp.Identity, &resp.Diagnostics, &resp.State)
	const summary = "Unable to create instance"
	var plan model
	resp.Diagnostics.Append(tfmodel.Get(ctx, req.Plan.Schema.Type(), req.Plan.Raw, &plan)...)
	var userData types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(adapter.FieldUserData), &userData)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, d := plan.Timeouts.Create(ctx, defaultCreateTimeout)
	resp.Diagnostics.Append(d...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	acc, loc, scope, ok := r.open(&resp.Diagnostics, summary, plan.Account)
	if !ok {
		return
	}
	call, creq := createCall(ctx, &plan, userData, scope, &resp.Diagnostics)
	// Made now on the provider's clock, which the recovery window of the
	// claim is judged on (adapter.Adoptable).
	call.Claim, call.Account = adapter.NewClaimAt(r.clock().Now()), r.accounts.Registry.Label(loc)
	m, err := r.createMachine(ctx, acc, call, creq)
	if err != nil {
		r.createFailed(ctx, acc, loc, &plan, call, creq, m, err, resp)
		return
	}
	// The machine exists: record it before anything else can fail.
	if !r.saveCreated(ctx, &plan, m, call.Claim, resp) {
		return
	}
	if m.Adopted {
		warnAdopted(&resp.Diagnostics, m, creq.Name)
	}
	r.settleCreated(ctx, acc, &plan, m.ID, creq, resp)
}

// createCall is the create request the plan asks for, with its key (the
// account's scope and the name); the caller adds the claim.
func createCall(ctx context.Context, plan *model, userData types.String, scope string, diags *diag.Diagnostics) (adapter.Call, adapter.CreateRequest) {
	labels, d := plan.labels(ctx)
	diags.Append(d...)
	creq := adapter.CreateRequest{
		Name:     plan.Name.ValueString(),
		OfferID:  plan.OfferID.ValueString(),
		Image:    plan.Image.ValueString(),
		Location: plan.Location.ValueString(),
		UserData: userData.ValueString(),
		Labels:   labels,
		PowerOn:  plan.Power.ValueString() != powerOff,
	}
	call := adapter.Call{
		IdempotencyKey: adapter.IdempotencyKey(scope, creq.Name),
	}
	return call, creq
}

// warnAdopted says that the create found its machine instead of making it,
// and every way that comes about.
func warnAdopted(diags *diag.Diagnostics, m adapter.Machine, name string) {
	diags.AddWarning("Instance adopted",
		fmt.Sprintf("Machine %s (%q) already existed with this instance's key (account and name) and the same offer, image, location "+
			"and user data, and a claim no state has confirmed yet, so it was adopted instead of creating another. Usually an earlier "+
			"apply created it within the hour and was interrupted before its state was saved; it may also be held by another "+
			"configuration with the same account and name that has not refreshed it since it applied, which is told on its next "+
			"plan and no longer deletes, powers or changes it, or be the machine a create_before_destroy replacement under the same "+
			"name replaces, whose destroy then says so. This state holds it now.", m.ID, name))
}

// settleCreated waits for the saved machine to settle in the power state the
// plan asks for and records it. A wait that fails leaves the machine saved,
// so Terraform taints it.
func (r *Resource) settleCreated(ctx context.Context, acc *adapter.Cached, plan *model, id string, creq adapter.CreateRequest, resp *resource.CreateResponse) {
	goal := goalOf(plan.Power.ValueString())
	m, err := r.settle(ctx, acc, id, goal, plan.shutdownTimeout(), &resp.Diagnostics)
	if err != nil {
		tfdiag.AddError(&resp.Diagnostics, nil, "Unable to create instance",
			fmt.Sprintf("Machine %s (%q) was created but did not become %s. It is saved in state and tainted, so the next apply replaces it; "+
				"if it only needs more time, raise timeouts.create.", m.ID, creq.Name, goal.State()), err)
		return
	}
	resp.Diagnostics.Append(plan.setMachine(ctx, m)...)
	resp.Diagnostics.Append(tfmodel.Set(ctx, &resp.State, resp.State.Schema.Type(), plan)...)
}

// createMachine asks the adapter for the machine, retrying what is worth
// retrying until the create's timeout. An adapter that makes a machine in
// several requests returns its id beside an error raised after it was made;
// that machine is kept even when a later attempt fails before it finds the
// machine again, so the caller can save it.
func (r *Resource) createMachine(ctx context.Context, acc *adapter.Cached, call adapter.Call, creq adapter.CreateRequest) (adapter.Machine, error) {
	var made adapter.Machine
	err := adapter.Retry(ctx, r.clock(), adapter.DefaultBackoff, fmt.Sprintf("create machine %q", creq.Name), func(ctx context.Context) error {
		m, err := acc.Create(ctx, call, creq)
		if m.ID != "" {
			made = m
		}
		return err
	})
	return made, err
}

// createFailed reports a failed create. A machine the adapter says it made
// before failing is saved, tainted, so the next apply replaces it instead
// of leaving it outside the state. Cut short by Ctrl-C or the timeout, or
// left unanswered, the backend may still have committed it before its
// answer was lost: a machine found now carrying this create's claim is
// saved, tainted, so state never loses one that exists.
func (r *Resource) createFailed(ctx context.Context, acc *adapter.Cached, loc adapter.Locator, plan *model, call adapter.Call, creq adapter.CreateRequest, made adapter.Machine, err error, resp *resource.CreateResponse) {
	const summary = "Unable to create instance"
	if made.ID != "" && r.saveCreated(ctx, plan, made, call.Claim, resp) {
		tfdiag.AddError(&resp.Diagnostics, fields, summary,
			fmt.Sprintf("Machine %s (%q) was created, but its create failed before the machine was ready. It is saved in state and tainted, "+
				"so the next apply replaces it once the cause is fixed. %s", made.ID, creq.Name, tfdiag.WayOut(err)), err)
		return
	}
	if ctx.Err() != nil || adapter.NoAnswer(err) {
		if found, ok := r.findCreated(ctx, acc, call); ok && r.saveCreated(ctx, plan, found, call.Claim, resp) {
			tfdiag.AddError(&resp.Diagnostics, nil, summary,
				fmt.Sprintf("Machine %s (%q) was created, but the create was cut short before it settled. It is saved in state and tainted, "+
					"so the next apply replaces it; if the create only needs more time, raise timeouts.create.", found.ID, creq.Name), err)
			return
		}
	}
	tfdiag.AddError(&resp.Diagnostics, fields, summary,
		fmt.Sprintf("Creating instance %q (offer %s, image %s) on %s failed. %s%s", creq.Name, creq.OfferID, creq.Image,
			r.accounts.Registry.Describe(loc), tfdiag.WayOut(err), mayAppear(err)), err)
}

// saveCreated puts the machine's id and this create's claim into state, every
// unknown made known, before the wait for it to settle.
func (r *Resource) saveCreated(ctx context.Context, plan *model, m adapter.Machine, claim string, resp *resource.CreateResponse) bool {
	plan.recordCreated(m)
	plan.Claim = types.StringValue(claim)
	resp.Diagnostics.Append(tfmodel.Set(ctx, &resp.State, resp.State.Schema.Type(), plan)...)
	return !resp.Diagnostics.HasError()
}

// settle waits for a new or adopted machine to come up, then switches its
// power to what the configuration asks: a machine adopted from an
// interrupted apply may have been created with the other power setting.
func (r *Resource) settle(ctx context.Context, acc *adapter.Cached, id string, goal power.Goal, bound time.Duration, diags *diag.Diagnostics) (adapter.Machine, error) {
	m, err := r.powerPath().Wait(ctx, acc, id, adapter.StateRunning, adapter.StateStopped)
	if err != nil || m.State == goal.State() {
		return power.WithID(m, id), err
	}
	return r.powerPath().To(ctx, acc, id, goal, bound, diags)
}

// findGrace bounds the one look-up after a create that was cut short. It runs
// after the create's own context ended, so Terraform, which waits for the
// provider after a Ctrl-C, can still record the machine.
const findGrace = 20 * time.Second

// findCreated looks, once, for the machine that carries this create's key
// and claim, in a fresh listing of the account's managed machines: the claim
// proves that this create made or adopted it. A machine with the key and
// another claim is left to the next apply, which adopts it; an adapter that
// cannot list finds nothing.
func (r *Resource) findCreated(ctx context.Context, acc *adapter.Cached, call adapter.Call) (adapter.Machine, bool) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), findGrace)
	defer cancel()
	m, ok, err := acc.Find(ctx, func(m adapter.Machine) bool {
		return m.Key == call.IdempotencyKey && m.Claim == call.Claim && m.State != adapter.StateDeleting
	})
	return m, ok && err == nil
}

// open opens the account a resource names and derives its scope.
func (r *Resource) open(diags *diag.Diagnostics, summary string, account types.String) (*adapter.Cached, adapter.Locator, string, bool) {
	if r.accounts == nil {
		diags.AddError(summary, "The provider is not configured; this is a bug in the provider.")
		return nil, adapter.Locator{}, "", false
	}
	acc, loc, err := r.accounts.Open(account.ValueString())
	var scope string
	if err == nil {
		scope, err = r.accounts.Registry.Scope(loc)
	}
	if err != nil {
		diags.AddAttributeError(path.Root("account"), summary,
			fmt.Sprintf("%s cannot be opened: %s", r.registry.DescribeID(account.ValueString()), tfdiag.Message(err)))
		return nil, adapter.Locator{}, "", false
	}
	return acc, loc, scope, true
}

// target opens the account recorded in state and takes the machine's own id
// from the instance id: what Read and Delete act on.
func (r *Resource) target(diags *diag.Diagnostics, summary string, state model) (*adapter.Cached, adapter.Locator, string, bool) {
	machineID, ok := machineOf(diags, summary, state.ID)
	if !ok {
		return nil, adapter.Locator{}, "", false
	}
	acc, loc, _, ok := r.open(diags, summary, state.Account)
	return acc, loc, machineID, ok
}

// machineOf is the machine's own id, the instance's id in state.
func machineOf(diags *diag.Diagnostics, summary string, id types.String) (string, bool) {
	if id.ValueString() == "" {
		diags.AddError(summary, "The instance has no id in state. Remove the instance from state (terraform state rm) and import it again with ACCOUNT_ID/MACHINE_ID.")
		return "", false
	}
	return id.ValueString(), true
}

// mayAppear warns, after a create that ended without an answer, that the
// backend may still make the machine, and what that means.
func mayAppear(err error) string {
	if !adapter.NoAnswer(err) && !adapter.Canceled(err) && adapter.CodeOf(err) != adapter.Transient {
		return ""
	}
	return " The backend may have taken the create and still make the machine; applying again finds it by its key and adopts it, " +
		"so no second machine is made."
}
