package tfdiag

import (
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// AddRefusal adds an error refusing the configured value at p. Terraform
// 1.15 and later print the configuration line an attribute's diagnostic
// points at, so a refusal of a value the messages would not repeat (a
// pasted secret where a reference belongs, a URL with a user part or a
// query) goes on the resource instead, where Terraform shows only the block's
// first line: the detail names the attribute, and the secret stays out of
// the output a CI system keeps. A value shown whole keeps its attribute.
func AddRefusal(diags *diag.Diagnostics, p path.Path, value string, secret bool, summary, detail string) {
	if secret || adapter.Redacted(value) != value {
		diags.AddError(summary, detail)
		return
	}
	diags.AddAttributeError(p, summary, detail)
}
