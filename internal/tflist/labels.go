package tflist

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// checkLabels refuses, on its key, a labels filter that no listed
// account's adapter lets a machine carry, by the rules compute_instance
// holds its labels to (a key, then a value): such a filter could only ever
// match nothing, and is a typo far more often than a question. A label
// that one listed adapter allows is kept, since it filters that account's
// machines. Accounts not known yet, or no account's id, are left out of
// the judgement; with none known, nothing is refused. summary heads the
// refusal (Lister.Summary).
func checkLabels(ctx context.Context, reg *adapter.Registry, config tfsdk.Config, summary string, diags *diag.Diagnostics) {
	var ids types.List
	var filter types.Map
	diags.Append(config.GetAttribute(ctx, path.Root("accounts"), &ids)...)
	diags.Append(config.GetAttribute(ctx, path.Root("labels"), &filter)...)
	if diags.HasError() || ids.IsNull() || ids.IsUnknown() || filter.IsNull() || filter.IsUnknown() {
		return
	}
	var defs []adapter.Definition
	for _, v := range ids.Elements() {
		s, ok := v.(types.String)
		if !ok || s.IsNull() || s.IsUnknown() {
			continue
		}
		loc, err := adapter.ParseLocator(s.ValueString())
		if err != nil {
			continue
		}
		if def, err := reg.Definition(loc.Kind); err == nil && !slices.ContainsFunc(defs, func(d adapter.Definition) bool { return d.Kind == def.Kind }) {
			defs = append(defs, def)
		}
	}
	if len(defs) == 0 {
		return
	}
	elems := filter.Elements()
	for _, k := range slices.Sorted(maps.Keys(elems)) {
		v, _ := elems[k].(types.String)
		keyOK, valueOK := false, false
		for _, def := range defs {
			if def.Rules.LabelKey.Allows(k) {
				keyOK = true
				valueOK = valueOK || v.IsNull() || v.IsUnknown() || def.Rules.LabelValue.Allows(v.ValueString())
			}
		}
		p := path.Root("labels").AtMapKey(k)
		switch {
		case !keyOK:
			diags.AddAttributeError(p, summary, fmt.Sprintf("labels key %q is not a label key any listed account's adapter accepts, "+
				"so no machine can carry it and the filter would match nothing: a key must be %s. Correct the key.", k, ruleTexts(defs, true)))
		case !valueOK:
			diags.AddAttributeError(p, summary, fmt.Sprintf("labels[%q] = %q is not a label value any listed account's adapter "+
				"accepts for it, so no machine can carry it and the filter would match nothing: a value must be %s. Correct the value.",
				k, v.ValueString(), ruleTexts(defs, false)))
		}
	}
}

// ruleTexts joins the adapters' label key (or value) rules, each with its
// adapter's kind when there is more than one.
func ruleTexts(defs []adapter.Definition, key bool) string {
	var parts []string
	for _, def := range defs {
		text := def.Rules.LabelValue.Text
		if key {
			text = def.Rules.LabelKey.Text
		}
		if len(defs) > 1 {
			text = fmt.Sprintf("%s (%s)", text, def.Kind)
		}
		parts = append(parts, text)
	}
	return strings.Join(parts, ", or ")
}
