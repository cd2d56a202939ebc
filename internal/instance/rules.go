package instance

import (
	"fmt"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// checkRules holds the name and the labels to the rules the account's
// adapter declares, at plan time, so that a value the backend would refuse
// is named on its attribute before anything is created or changed. Values
// that did not change are not checked again: the machine already has them.
func checkRules(plan, state *model, creating bool, def adapter.Definition, diags *diag.Diagnostics) {
	rules := def.Rules
	if known(plan.Name) && (creating || !plan.Name.Equal(state.Name)) && !rules.MachineName.Allows(plan.Name.ValueString()) {
		diags.AddAttributeError(path.Root(adapter.FieldName), "Unable to use machine name",
			fmt.Sprintf("name = %q is not a machine name the %s adapter accepts: a name must be %s. Choose a name that follows this rule.",
				plan.Name.ValueString(), def.Kind, rules.MachineName.Text))
	}
	if plan.Labels.IsNull() || plan.Labels.IsUnknown() || !creating && plan.Labels.Equal(state.Labels) {
		return
	}
	elems := plan.Labels.Elements()
	keys := make([]string, 0, len(elems))
	for k := range elems {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		p := path.Root(adapter.FieldLabels).AtMapKey(k)
		if !rules.LabelKey.Allows(k) {
			diags.AddAttributeError(p, "Unable to use label key",
				fmt.Sprintf("labels key %q is not a label key the %s adapter accepts: a key must be %s. Rename the label.",
					k, def.Kind, rules.LabelKey.Text))
			continue
		}
		v, ok := elems[k].(types.String)
		if !ok || v.IsNull() || v.IsUnknown() {
			continue
		}
		if !rules.LabelValue.Allows(v.ValueString()) {
			diags.AddAttributeError(p, "Unable to use label value",
				fmt.Sprintf("labels[%q] = %q is not a label value the %s adapter accepts: a value must be %s. Change the value.",
					k, v.ValueString(), def.Kind, rules.LabelValue.Text))
		}
	}
}
