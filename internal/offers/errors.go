package offers

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
)

// describe renders the filters that were set, for messages.
func describe(q adapter.Query) string {
	var parts []string
	add := func(name string, v any, set bool) {
		if set {
			parts = append(parts, fmt.Sprintf("%s=%v", name, v))
		}
	}
	add("kind", q.Kind, q.Kind != "")
	add(adapter.FieldLocation, q.Location, q.Location != "")
	add("min_vcpu", q.MinVCPU, q.MinVCPU != 0)
	add("min_memory_gib", q.MinMemoryGiB, q.MinMemoryGiB != 0)
	add("min_gpus", q.MinGPUs, q.MinGPUs != 0)
	add("gpu_model", q.GPUModel, q.GPUModel != "")
	add("max_price_per_hour", q.MaxPricePerHour, q.MaxPricePerHour != 0)
	if len(parts) == 0 {
		return "(none)"
	}
	return strings.Join(parts, ", ")
}

// addListError reports a failed listing of accounts[i] on the attribute it
// concerns, with the way out for it. id is the account's id as RedactID
// shows it; def is its adapter's definition, which names its settings.
func addListError(ctx context.Context, diags *diag.Diagnostics, p path.Path, i int, id string, def adapter.Definition, loc adapter.Locator, q adapter.Query, err error) {
	at := func(field string) (path.Path, bool) {
		switch field {
		case "kind", "min_vcpu", "min_memory_gib", "min_gpus", "gpu_model", "max_price_per_hour":
			return path.Root(field), true
		case adapter.FieldLocation:
			if q.Location != "" {
				return path.Root(field), true
			}
		}
		return p, true
	}
	detail := fmt.Sprintf("Listing the offers of account %s with filters %s failed. %s", id, describe(q), wayOut(err, def, loc))
	switch {
	case ctx.Err() != nil:
		// Terraform stopped the command (Ctrl-C): the backend is not to blame.
		detail = fmt.Sprintf("Listing the offers of account %s was interrupted, because the command was stopped. Run the command again.", id)
	case tfdiag.UnknownUntilApply(err):
		detail = fmt.Sprintf("The offers of account %s cannot be listed during plan: its secret comes from the provider block's secrets, "+
			"which are not known until apply. Use an env:// or file:// reference for accounts that compute_offers reads.", id)
	case adapter.Unresolved(err):
		// Unlike a plan-time check, a data source cannot wait for apply:
		// its result is part of the plan.
		detail = fmt.Sprintf("The offers of account %s cannot be listed: its secret reference cannot be resolved where Terraform runs, and "+
			"compute_offers is read during plan, so the secret must be there already. Set it in the environment that runs terraform plan, "+
			"or fix the reference.", id)
	case adapter.FieldOf(err) == adapter.FieldLocation && q.Location == "":
		setting, _ := def.Setting(adapter.RoleLocation)
		detail = fmt.Sprintf("Listing the offers of accounts[%d] (%s) failed: compute_offers sets no location, so the account's own location %s was used, "+
			"and the backend does not know it. Fix %s.%s of the compute_provider_account, or set location on this data source.",
			i, id, adapter.Quoted(adapter.Redacted(def.Value(loc.Settings, adapter.RoleLocation))), def.BlockName(), setting.Name)
	}
	tfdiag.AddError(diags, at, summary, detail, err)
}

// wayOut is tfdiag.WayOut, except for failures to reach the backend, whose
// way out names the account's endpoint when its adapter has one.
func wayOut(err error, def adapter.Definition, loc adapter.Locator) string {
	backend := "the account's backend"
	if ep := def.Value(loc.Settings, adapter.RoleEndpoint); ep != "" {
		backend = "the account's endpoint " + adapter.Redacted(ep)
	}
	switch {
	case adapter.NoAnswer(err):
		return "The backend took the request but never answered it, not even when it was sent once more, so it was not retried further; " +
			"check that " + backend + " is right and the backend is up, then run the command again."
	case adapter.Is(err, adapter.Transient):
		return "The backend failed or could not be reached, and kept failing while the read was retried until timeouts.read; " +
			"check that " + backend + " is reachable from where Terraform runs, then run the command again, or raise timeouts.read to retry for longer."
	}
	return tfdiag.WayOut(err)
}
