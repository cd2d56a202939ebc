// Package tfidentity is the resource identity compute_instance and
// compute_bootstrap_host share (Terraform 1.12 and later): the account a
// machine lives on and the machine's own id, kept beside the state after
// every operation, and read back by an import block that names the machine
// with `identity = { … }` instead of an id, and what an import names, by
// id or by identity (target.go). Terraform and OpenTofu releases without
// identity never call into it for more than the import and lose nothing.
//
// It imports the plugin framework, internal/adapter and internal/tfdiag,
// never a resource package or a concrete adapter.
package tfidentity

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// The identity's attributes are named after the resource attributes that
// hold the same values, as the AWS provider names its identity attributes
// (`id`, beside `account_id` and `region`) and hcloud its `id`: a value
// copied from a resource, a compute_machines entry or a list result goes
// into the identity under the name it had there.
const (
	Account = "account"
	ID      = "id"
)

// Model is an identity as the framework reads and writes it.
type Model struct {
	Account types.String `tfsdk:"account"`
	ID      types.String `tfsdk:"id"`
}

// Schema is the identity schema of a machine resource; what names the
// resource in messages ("instance", "bootstrap host").
func Schema(what string) identityschema.Schema {
	return identityschema.Schema{
		Attributes: map[string]identityschema.Attribute{
			Account: identityschema.StringAttribute{
				RequiredForImport: true,
				Description: "The id of the compute_provider_account the " + what + " lives on, as the resource's `account` " +
					"holds it (e.g. `compute_provider_account.cloud.id`). Named `account` after that attribute rather than " +
					"AWS's `account_id`, since it is the provider account's own id, not a number at the backend. It " +
					"changes with the resource's `account` when the account is re-pointed in place.",
			},
			ID: identityschema.StringAttribute{
				RequiredForImport: true,
				Description: "The machine's own id at its backend (a server id, a server number, a VMID), as the " +
					"resource's `id` holds it; `id`, as the AWS and hcloud providers name theirs.",
			},
		},
	}
}

// Follow sets identity to the account and id the first of states that is
// not null holds, once both are known, and leaves it as it was otherwise.
// Each operation defers it, so every path that leaves a machine in state (a
// partial create included) leaves its identity beside it. A read that
// removes the machine passes the prior state after its own: the framework
// wants an identity back from every read, and one from a Terraform that
// sent none (1.11) would otherwise be null. identity is nil under a
// Terraform without identity support.
func Follow(ctx context.Context, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics, states ...*tfsdk.State) {
	if identity == nil {
		return
	}
	for _, state := range states {
		if state == nil || state.Raw.IsNull() {
			continue
		}
		var m Model
		diags.Append(state.GetAttribute(ctx, path.Root(Account), &m.Account)...)
		diags.Append(state.GetAttribute(ctx, path.Root(ID), &m.ID)...)
		if known(m.Account) && known(m.ID) {
			diags.Append(identity.Set(ctx, m)...)
		}
		return
	}
}

// Plan gives a planned update the identity its apply will leave: the
// planned account (another one after a re-point) and the machine's id. An
// account or id known only at apply keeps the prior identity in the plan.
func Plan(ctx context.Context, plan *tfsdk.Plan, identity *tfsdk.ResourceIdentity, diags *diag.Diagnostics) {
	if identity == nil || plan == nil || plan.Raw.IsNull() || identity.Raw.IsNull() {
		return
	}
	var m Model
	diags.Append(plan.GetAttribute(ctx, path.Root(Account), &m.Account)...)
	diags.Append(plan.GetAttribute(ctx, path.Root(ID), &m.ID)...)
	if !known(m.Account) || !known(m.ID) {
		return
	}
	diags.Append(identity.Set(ctx, m)...)
}

func known(v types.String) bool { return !v.IsNull() && !v.IsUnknown() && v.ValueString() != "" }
