package instance

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
)

// Create asks for the machine with a key derived from the account's scope
// and the name, saves its id the moment the backend answers, and then waits
// for it to settle. A wait that fails leaves the id in state, so Terraform
// taints the machine instead of losing it; an apply interrupted before the
// answer finds the machine again by its key.
func (r *Resource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	const summary = "Unable to create instance"
	var plan model
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	var userData types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("user_data"), &userData)...)
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
	labels, d := plan.labels(ctx)
	resp.Diagnostics.Append(d...)
	name := plan.Name.ValueString()
	creq := adapter.CreateRequest{
		Name:     name,
		OfferID:  plan.OfferID.ValueString(),
		Image:    plan.Image.ValueString(),
		Location: plan.Location.ValueString(),
		UserData: userData.ValueString(),
		Labels:   labels,
		PowerOn:  plan.Power.ValueString() != powerOff,
	}
	call := adapter.Call{IdempotencyKey: adapter.IdempotencyKey(scope, name)}
	var m adapter.Machine
	err := adapter.Retry(ctx, r.clock(), adapter.DefaultBackoff, fmt.Sprintf("create machine %q", name), func(ctx context.Context) error {
		var err error
		m, err = acc.Create(ctx, call, creq)
		return err
	})
	if err != nil && ctx.Err() != nil {
		// Cut short by Ctrl-C or the timeout: the backend may have committed
		// the create before its answer was lost. A machine found now is
		// saved, tainted, so state never loses one that exists.
		if found, ok := r.findCreated(ctx, acc, call, creq); ok {
			plan.recordCreated(loc, found)
			resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
			tfdiag.AddError(&resp.Diagnostics, nil, summary,
				fmt.Sprintf("Machine %s (%q) was created, but the create was cut short before it settled. It is saved in state and tainted, "+
					"so the next apply replaces it; if the create only needs more time, raise timeouts.create.", found.ID, name), err)
			return
		}
	}
	if err != nil {
		tfdiag.AddError(&resp.Diagnostics, fields, summary,
			fmt.Sprintf("Creating instance %q (offer %s, image %s) failed. %s", name, creq.OfferID, creq.Image, tfdiag.WayOut(err)), err)
		return
	}

	// The machine exists: record it before anything else can fail.
	plan.recordCreated(loc, m)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}

	want := adapter.StateRunning
	if !creq.PowerOn {
		want = adapter.StateStopped
	}
	created := m.ID
	// Settle first, then match power: a machine adopted from an interrupted
	// apply may have been created with the other power setting.
	m, err = r.waitState(ctx, acc, created, adapter.StateRunning, adapter.StateStopped)
	if err == nil && m.State != want {
		err = r.matchPower(ctx, acc, m, creq.PowerOn)
		if err == nil {
			m, err = r.waitState(ctx, acc, created, want)
		}
	}
	if err != nil {
		tfdiag.AddError(&resp.Diagnostics, nil, summary,
			fmt.Sprintf("Machine %s (%q) was created but did not become %s. It is saved in state and tainted, so the next apply replaces it; "+
				"if it only needs more time, raise timeouts.create.", created, name, want), err)
		return
	}
	if err := r.record(ctx, acc, created); err != nil {
		tfdiag.AddWarning(&resp.Diagnostics, nil, summary,
			fmt.Sprintf("Machine %s (%q) is created and saved in state, but marking it as recorded failed, so until the next update "+
				"a create elsewhere that derives the same key (same account and name) could still take it over.", created, name), err)
	}
	resp.Diagnostics.Append(plan.setMachine(ctx, loc, m)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// matchPower switches a machine that Create adopted from an interrupted
// apply, which may since have been asked for the other power state. A
// machine Create just made is still pending and needs nothing.
func (r *Resource) matchPower(ctx context.Context, acc *adapter.Cached, m adapter.Machine, on bool) error {
	var action adapter.PowerAction
	switch {
	case on && m.State == adapter.StateStopped:
		action = adapter.PowerOn
	case !on && m.State == adapter.StateRunning:
		action = adapter.PowerOff
	default:
		return nil
	}
	return adapter.Retry(ctx, r.clock(), adapter.DefaultBackoff, fmt.Sprintf("power %s machine %s", action, m.ID), func(ctx context.Context) error {
		return acc.Power(ctx, m.ID, action)
	})
}

// record marks a machine as held by a Terraform state (adapter.Machine.Recorded).
// It runs only once the create has finished, so an apply interrupted before
// that still adopts the machine when run again; from then on, another
// configuration or a create_before_destroy replacement under the same name
// gets a Conflict instead of taking the machine over.
func (r *Resource) record(ctx context.Context, acc *adapter.Cached, id string) error {
	if !acc.Capabilities().Has(adapter.CapUpdate) {
		return nil
	}
	return adapter.Retry(ctx, r.clock(), adapter.DefaultBackoff, fmt.Sprintf("record machine %s", id), func(ctx context.Context) error {
		return acc.Update(ctx, id, adapter.UpdateRequest{Record: true})
	})
}

// findGrace bounds the one look-up after a create that was cut short. It runs
// after the create's own context ended, so Terraform, which waits for the
// provider after a Ctrl-C, can still record the machine.
const findGrace = 20 * time.Second

// findCreated looks, once, for the machine this create's key and
// fingerprint describe, through the adapter's listing of managed machines.
// A machine with the key but another fingerprint was made by an earlier
// apply with other settings, and is left alone as Create left it.
func (r *Resource) findCreated(ctx context.Context, acc *adapter.Cached, call adapter.Call, creq adapter.CreateRequest) (adapter.Machine, bool) {
	lister, ok := acc.Adapter.(adapter.Lister)
	if !ok {
		return adapter.Machine{}, false
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), findGrace)
	defer cancel()
	machines, err := lister.List(ctx)
	if err != nil {
		return adapter.Machine{}, false
	}
	for _, m := range machines {
		want := creq
		if want.Location == "" {
			// The adapter put it in the account's location.
			want.Location = m.Location
		}
		if m.Key == call.IdempotencyKey && m.Fingerprint == adapter.Fingerprint(want) && m.State != adapter.StateDeleting {
			return m, true
		}
	}
	return adapter.Machine{}, false
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
			fmt.Sprintf("account %s cannot be opened: %s", adapter.Quoted(adapter.RedactID(account.ValueString())), tfdiag.Message(err)))
		return nil, adapter.Locator{}, "", false
	}
	return acc, loc, scope, true
}

// waitState polls the machine directly (bypassing the shared listing) until
// it reaches one of wants; running also needs an address. A machine in state
// error, or gone, ends the wait at once.
func (r *Resource) waitState(ctx context.Context, acc *adapter.Cached, id string, wants ...adapter.State) (adapter.Machine, error) {
	names := make([]string, len(wants))
	for i, w := range wants {
		names[i] = string(w)
	}
	want := strings.Join(names, " or ")
	var last adapter.Machine
	err := adapter.WaitFor(ctx, r.clock(), pollBackoff, fmt.Sprintf("machine %s to be %s", id, want), func(ctx context.Context) (bool, error) {
		m, err := acc.Fresh(ctx, id)
		if err != nil {
			if adapter.IsNotFound(err) {
				return false, &adapter.Error{Code: adapter.InvalidState, Err: err,
					Message: fmt.Sprintf("machine %s disappeared while waiting for it to be %s", id, want)}
			}
			return false, err
		}
		last = m
		switch {
		case m.State == adapter.StateError:
			return false, adapter.Errorf(adapter.InvalidState, "machine %s is in state error (backend status %q)", id, m.RawState)
		case slices.Contains(wants, m.State) && (m.State != adapter.StateRunning || m.HasAddress()):
			return true, nil
		}
		return false, nil
	})
	return last, err
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

// machineOf takes the machine's own id from an instance id in state.
func machineOf(diags *diag.Diagnostics, summary string, id types.String) (string, bool) {
	_, machineID, err := adapter.ParseInstanceID(id.ValueString())
	if err != nil {
		diags.AddError(summary, fmt.Sprintf("The instance's id %s is malformed: %s. Remove the instance from state (terraform state rm) and import it again with ACCOUNT_ID/MACHINE_ID.",
			adapter.Quoted(adapter.RedactID(id.ValueString())), tfdiag.Message(err)))
		return "", false
	}
	return machineID, true
}
