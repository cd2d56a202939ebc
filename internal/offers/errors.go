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
// shows it; def is its adapter's definition, which names its settings, and
// env the environment its defaults come from (Registry.Environment).
func addListError(ctx context.Context, diags *diag.Diagnostics, p path.Path, i int, id string, def adapter.Definition, env adapter.EnvLookup, loc adapter.Locator, q adapter.Query, err error) {
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
	detail := tfdiag.ListStopped(ctx, err, "offers", "compute_offers", id)
	switch {
	case detail != "":
	case adapter.FieldOf(err) == adapter.FieldLocation && q.Location == "":
		setting, _ := def.Setting(adapter.RoleLocation)
		detail = fmt.Sprintf("Listing the offers of accounts[%d] (%s) failed: compute_offers sets no location, so the account's own location %s was used, "+
			"and the backend does not know it. Fix %s.%s of the compute_provider_account, or set location on this data source.",
			i, id, adapter.Quoted(adapter.Redacted(def.Value(loc.Settings, adapter.RoleLocation))), def.BlockName(), setting.Name)
	default:
		detail = fmt.Sprintf("Listing the offers of account %s with filters %s failed. %s", id, describe(q),
			tfdiag.ListWayOut(err, tfdiag.Endpoint(def, loc.Settings, env)))
	}
	tfdiag.AddError(diags, at, summary, detail, err)
}
