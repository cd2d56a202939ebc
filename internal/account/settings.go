package account

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// getter is what tfsdk.Config, tfsdk.Plan and tfsdk.State have in common.
type getter interface {
	GetAttribute(ctx context.Context, p path.Path, target any) diag.Diagnostics
}

// block is one adapter block as a configuration, plan or state holds it.
type block struct {
	kind    string
	def     adapter.Definition
	values  map[string]types.String
	unknown bool // the block or one of its values is not known yet
	// written are the configuration's values when values are the plan's,
	// which hold the defaults: what tells a setting left out (see leftOut).
	written map[string]types.String
}

func (b block) path() path.Path { return path.Root(b.def.BlockName()) }

// name is the block's attribute name, for messages.
func (b block) name() string { return b.def.BlockName() }

// settings returns the known, non-empty values.
func (b block) settings() map[string]string {
	out := map[string]string{}
	for name, v := range b.values {
		if !v.IsNull() && !v.IsUnknown() && v.ValueString() != "" {
			out[name] = v.ValueString()
		}
	}
	return out
}

// blocks reads every adapter block; set lists those that are not null, and
// unknown says whether a whole block is not known yet (a dynamic value).
func (r *Resource) blocks(ctx context.Context, g getter) (set []block, unknown bool, diags diag.Diagnostics) {
	for _, def := range r.registry.Definitions() {
		var obj types.Object
		diags.Append(g.GetAttribute(ctx, path.Root(def.BlockName()), &obj)...)
		switch {
		case diags.HasError():
			return nil, false, diags
		case obj.IsUnknown():
			unknown = true
			continue
		case obj.IsNull():
			continue
		}
		b := block{kind: def.Kind, def: def, values: map[string]types.String{}}
		for name, v := range obj.Attributes() {
			s, _ := v.(types.String)
			b.values[name] = s
			if s.IsUnknown() {
				b.unknown = true
			}
		}
		set = append(set, b)
	}
	return set, unknown, diags
}

// object builds a block's value from normalized settings.
func object(def adapter.Definition, settings map[string]string) types.Object {
	vals := map[string]attr.Value{}
	for _, s := range def.Settings {
		if v, ok := settings[s.Name]; ok && v != "" {
			vals[s.Name] = types.StringValue(v)
		} else {
			vals[s.Name] = types.StringNull()
		}
	}
	return types.ObjectValueMust(settingTypes(def), vals)
}

// planned is a block's planned value while some of its values are unknown:
// unknown values stay unknown, known ones stay, and settings the
// configuration leaves out take their defaults, as Normalize will give them.
func planned(b block, env adapter.EnvLookup) types.Object {
	vals := map[string]attr.Value{}
	for _, s := range b.def.Settings {
		v := b.values[s.Name]
		switch {
		case v.IsUnknown():
			vals[s.Name] = types.StringUnknown()
		case !v.IsNull() && v.ValueString() != "":
			vals[s.Name] = v
		default:
			if d, _ := s.Fallback(env); d != "" {
				vals[s.Name] = types.StringValue(d)
			} else {
				vals[s.Name] = types.StringNull()
			}
		}
	}
	return types.ObjectValueMust(settingTypes(b.def), vals)
}

// nullBlocks sets every adapter block but keep to null.
func (r *Resource) nullBlocks(keep string) map[string]types.Object {
	out := map[string]types.Object{}
	for _, def := range r.registry.Definitions() {
		if def.Kind != keep {
			out[def.BlockName()] = types.ObjectNull(settingTypes(def))
		}
	}
	return out
}

// secretRefs describes where a block's secrets come from, for messages:
// "the token at env://API_TOKEN". References are not secret.
func secretRefs(def adapter.Definition, settings map[string]string) string {
	var parts []string
	for _, s := range def.Settings {
		if s.IsSecret() && settings[s.Name] != "" {
			parts = append(parts, "the "+s.Name+" at "+settings[s.Name])
		}
	}
	if len(parts) == 0 {
		return "the credentials"
	}
	return strings.Join(parts, " and ")
}

// firstSecret names the first secret setting, where a refused credential is
// reported.
func firstSecret(def adapter.Definition) string {
	s, _ := def.Setting(adapter.RoleSecret)
	return s.Name
}
