package poweraction

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/power"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
	"github.com/seedcompute/terraform-provider-compute/internal/tfidentity"
)

// ModifyPlan refuses, before anything is invoked, what the action could
// only fail at: an adapter without the capability, and, once the instance
// is known, an id its adapter could not have given (before any request,
// and shown only redacted), and a machine the plan's one read finds
// unmarked, held by another state, or stopped where a restart needs it
// running. A read that cannot tell now (a backend down) leaves the
// judgement to Invoke, which reads the machine again before it acts.
func (a *Action) ModifyPlan(ctx context.Context, req action.ModifyPlanRequest, resp *action.ModifyPlanResponse) {
	if a.accounts == nil {
		return
	}
	ctx = a.accounts.Logging(ctx)
	_, t, ok, d := a.read(ctx, req.Config)
	resp.Diagnostics.Append(d...)
	if !ok || !known(t.Account) {
		return
	}
	acc, def, ok := a.open(t, &resp.Diagnostics)
	if !ok || !a.capable(def, t, &resp.Diagnostics) || !known(t.ID) || t.Claim.IsUnknown() {
		return
	}
	// An id the adapter could not have given is refused before any
	// request, and shown only redacted: a secret may have been pasted there.
	if err := tfidentity.CheckMachineID("instance.id", t.ID.ValueString(), def); err != nil {
		a.malformed(t, tfdiag.Message(err), &resp.Diagnostics)
		return
	}
	rctx, cancel := context.WithTimeout(ctx, adapter.ProofBound)
	defer cancel()
	m, err := acc.Get(rctx, t.ID.ValueString())
	switch {
	case adapter.IsNotFound(err):
		resp.Diagnostics.AddAttributeError(idPath, a.kind.Refused, a.gone(t, def))
	case adapter.Is(err, adapter.InvalidInput):
		// A malformed id is as malformed at invoke.
		a.malformed(t, "The account's adapter refused instance.id: "+tfdiag.Message(err), &resp.Diagnostics)
	case err != nil:
		adapter.LoggerFrom(ctx).Info(ctx, "the machine could not be read at plan; the action reads it again before it acts",
			map[string]any{"machine_id": t.ID.ValueString(), "code": string(adapter.CodeOf(err))})
	default:
		if !a.refuseHold(m, t, def, &resp.Diagnostics) {
			return
		}
		if a.kind.running && m.State == adapter.StateStopped && !t.Power.IsUnknown() && t.Power.ValueString() != "on" {
			// Stopped stays stopped until something starts it; pending
			// and the like may be running by the time the action runs.
			resp.Diagnostics.AddAttributeError(idPath, a.kind.Refused, a.notRunning(power.WithID(m, t.ID.ValueString()))+
				" Start it with compute_instance_power_on first; an instance whose configuration says power = \"on\" is started by the next apply.")
		}
	}
}

// malformed refuses the instance's id as no machine id on its account;
// why says so, showing the id only redacted.
func (a *Action) malformed(t target, why string, diags *diag.Diagnostics) {
	diags.AddAttributeError(idPath, a.kind.Refused, fmt.Sprintf("%s. The instance is on %s: write instance = compute_instance.NAME "+
		"(or compute_bootstrap_host.NAME), or the id as that resource's id attribute holds it.",
		strings.TrimSuffix(why, "."), a.registry.DescribeID(t.Account.ValueString())))
}

// The attributes refusals point at.
var (
	accountPath = path.Root("instance").AtName("account")
	idPath      = path.Root("instance").AtName("id")
	claimPath   = path.Root("instance").AtName("claim")
)

// open opens the instance's account and its adapter's definition.
func (a *Action) open(t target, diags *diag.Diagnostics) (*adapter.Cached, adapter.Definition, bool) {
	acc, loc, err := a.accounts.Open(t.Account.ValueString())
	var def adapter.Definition
	if err == nil {
		def, err = a.accounts.Registry.Definition(loc.Kind)
	}
	if err != nil {
		diags.AddAttributeError(accountPath, a.kind.Refused, fmt.Sprintf("instance.account must be a compute_provider_account's id, "+
			"as compute_instance's account attribute holds it (write instance = compute_instance.NAME): %s", tfdiag.Message(err)))
		return nil, def, false
	}
	return acc, def, true
}

// capable refuses an action the account's adapter does not offer, naming the
// account and the actions that would do instead, and one the account lacks
// a setting for (adapter.Definition.Lacks), naming the setting.
func (a *Action) capable(def adapter.Definition, t target, diags *diag.Diagnostics) bool {
	if a.kind.offeredBy(def.Capabilities) {
		return a.configured(def, t, diags)
	}
	diags.AddAttributeError(accountPath, a.kind.Refused, fmt.Sprintf(
		"%s asks machine %s on %s to %s, but the %s adapter cannot do that (it offers: %s). %s",
		a.kind.typeName(), t.ID.ValueString(), a.registry.DescribeID(t.Account.ValueString()), a.kind.verb(), def.Kind,
		offered(def.Capabilities), a.insteadOf(def)))
	return false
}

// configured refuses an account that leaves out a setting the action's
// capability needs; the account id holds its settings, so the plan can tell.
func (a *Action) configured(def adapter.Definition, t target, diags *diag.Diagnostics) bool {
	loc, err := adapter.ParseLocator(t.Account.ValueString())
	if err != nil {
		return true // open refused it already
	}
	if err := def.Lacks(a.kind.capability(), a.kind.typeName(), loc.Settings); err != nil {
		diags.AddAttributeError(accountPath, a.kind.Refused, fmt.Sprintf("%s. Set it in the compute_provider_account of machine %s "+
			"(%s), then plan again.", tfdiag.Message(err), t.ID.ValueString(), a.registry.DescribeID(t.Account.ValueString())))
		return false
	}
	return true
}

// offered lists the actions caps offer, as the action types name them.
func offered(caps adapter.Capabilities) string {
	s := ""
	for _, k := range kinds {
		if k.offeredBy(caps) {
			if s != "" {
				s += ", "
			}
			s += k.typeName()
		}
	}
	if s == "" {
		return "no action"
	}
	return s
}

// insteadOf is the way out of a refused action: the nearest one the
// adapter offers, or removing the action; for a rescue, also the backend's
// own way into one (adapter.NoteRescue).
func (a *Action) insteadOf(def adapter.Definition) string {
	caps := def.Capabilities
	var alt []adapter.PowerAction
	switch a.kind.action {
	case adapter.PowerShutdown:
		alt = []adapter.PowerAction{adapter.PowerOff}
	case adapter.PowerReboot:
		alt = []adapter.PowerAction{adapter.PowerReset}
	case adapter.PowerReset:
		alt = []adapter.PowerAction{adapter.PowerReboot}
	}
	for _, k := range kinds {
		for _, al := range alt {
			if k.action == al && caps.Offers(al) {
				return fmt.Sprintf("Use %s instead (%s), or remove this action.", k.typeName(), al.Description())
			}
		}
	}
	if a.kind.rescue {
		how := strings.TrimSuffix(def.Notes[adapter.NoteRescue], ".")
		if how == "" {
			how = "boot it from a rescue image through the backend's own console"
		}
		return "Remove this action from the configuration (and from any action_trigger that names it); to rescue the machine, " + how + "."
	}
	return "Remove this action from the configuration (and from any action_trigger that names it)."
}

// refuseHold refuses a machine the instance's state does not hold, as
// Update does: one without the provider's mark, or whose mark carries
// another claim.
func (a *Action) refuseHold(m adapter.Machine, t target, def adapter.Definition, diags *diag.Diagnostics) bool {
	id, claim := t.ID.ValueString(), t.Claim.ValueString()
	switch {
	case def.MarkLost(m, claim):
		diags.AddAttributeError(idPath, a.kind.Refused, fmt.Sprintf(
			"Machine %s (%q) on %s lost the provider's mark since this state took it (its name was changed outside Terraform), so %s "+
				"does not act on it. Run terraform apply once: it writes the mark back. Then invoke the action.",
			id, m.Name, a.registry.DescribeID(t.Account.ValueString()), a.kind.typeName()))
		return false
	case !m.Managed:
		diags.AddAttributeError(idPath, a.kind.Refused, fmt.Sprintf(
			"Machine %s (%q) on %s does not carry the provider's mark, so %s does not act on it: the provider does a %s only on machines "+
				"it manages. If the machine was just imported into a compute_instance, run terraform apply once so the mark is written, "+
				"then invoke the action.", id, m.Name, a.registry.DescribeID(t.Account.ValueString()), a.kind.typeName(), a.kind.noun()))
		return false
	case !adapter.Held(m, claim):
		mine := fmt.Sprintf("instance.claim (%q)", claim)
		if claim == "" {
			mine = "this configuration's, which names none (instance.claim is empty)"
		}
		diags.AddAttributeError(claimPath, a.kind.Refused, fmt.Sprintf(
			"Machine %s (%q) on %s is held by another Terraform state: its mark carries another claim than %s, so "+
				"%s does not act on it, as compute_instance would not change it. Invoke the action from the configuration whose state "+
				"holds the machine; to act on it from here, move it into this state first (`terraform state rm` there, then import it here).",
			id, m.Name, a.registry.DescribeID(t.Account.ValueString()), mine, a.kind.typeName()))
		return false
	}
	return true
}

// gone is the refusal of a machine the backend proved absent.
func (a *Action) gone(t target, def adapter.Definition) string {
	return fmt.Sprintf("Machine %s on %s no longer exists (the %s backend says so), so there is nothing to %s. Run terraform plan: its "+
		"refresh removes the instance from the state, and the next apply creates it anew.",
		t.ID.ValueString(), a.registry.DescribeID(t.Account.ValueString()), def.Kind, a.kind.verb())
}

// known reports whether every value is known and not null.
func known(vs ...types.String) bool {
	for _, v := range vs {
		if v.IsNull() || v.IsUnknown() {
			return false
		}
	}
	return true
}
