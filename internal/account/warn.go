package account

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// warnSettings adds a warning for each setting whose value its adapter
// warns about (adapter.Setting.Warn). settings are the block's values after
// defaults; a value not known yet is left out, and warned about once known.
// The text names the setting and its value, since older Terraform and
// OpenTofu show the warning at the resource block; Terraform 1.15 points at
// the setting's line, which is harmless here: a warned value (a TLS option)
// is one messages repeat whole.
func warnSettings(diags *diag.Diagnostics, b block, settings map[string]string) {
	for _, s := range b.def.Settings {
		v, ok := settings[s.Name]
		if s.Warn == nil || !ok {
			continue
		}
		msg := s.Warn(v)
		if msg == "" {
			continue
		}
		diags.AddAttributeWarning(b.path().AtName(s.Name), "Account setting weakens the account",
			fmt.Sprintf("%s of compute_provider_account: %s", adapter.Show(b.name()+"."+s.Name, adapter.Redacted(v)), msg))
	}
}

// knownSettings are a block's known values with defaults for those the
// configuration leaves out, while other values are unknown: what Normalize
// will see of the known part.
func knownSettings(b block, env adapter.EnvLookup) map[string]string {
	out := map[string]string{}
	for _, s := range b.def.Settings {
		v := b.values[s.Name]
		switch {
		case v.IsUnknown():
		case !v.IsNull() && v.ValueString() != "":
			out[s.Name] = v.ValueString()
		default:
			if d, _ := s.Fallback(env); d != "" {
				out[s.Name] = d
			}
		}
	}
	return out
}
