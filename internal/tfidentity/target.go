package tfidentity

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
)

// Target is what an import names, for compute_instance and
// compute_bootstrap_host alike: the account, spelled as
// compute_provider_account spells its id from the same settings (defaults
// filled, the endpoint canonical, so a trailing slash is the same
// account), and the machine's own id, which must be one the account's
// adapter could have given, so the import fails with the id's form
// instead of the first read failing on it. An import id
// (ACCOUNT_ID/MACHINE_ID) is refused as a whole; an identity attribute by
// attribute, naming identity.account or identity.id, since the user wrote
// no ACCOUNT_ID/MACHINE_ID. Ids are shown only redacted: a secret may have
// been pasted in the wrong place. reg is nil before the provider is
// configured, and the checks are then left to the first read. what names
// the resource in the summary ("instance", "bootstrap host").
func Target(ctx context.Context, req resource.ImportStateRequest, reg *adapter.Registry, what string) (adapter.Locator, string, diag.Diagnostics) {
	summary := "Unable to import " + what
	var diags diag.Diagnostics
	if req.ID != "" || req.Identity == nil || req.Identity.Raw.IsNull() {
		loc, machineID, err := adapter.ParseInstanceID(req.ID)
		if err == nil {
			loc, err = checked(reg, loc)
		}
		if err == nil {
			err = machineIDOf(reg, loc, "MACHINE_ID", machineID)
		}
		if err != nil {
			diags.AddError(summary, fmt.Sprintf("The import id %s is malformed: %s\n\nImport ids look like ACCOUNT_ID/MACHINE_ID, where ACCOUNT_ID is the "+
				"compute_provider_account's id (its id attribute) and MACHINE_ID the machine's own id at the backend.",
				adapter.Quoted(adapter.RedactID(req.ID)), tfdiag.Message(err)))
		}
		return loc, machineID, diags
	}
	var m Model
	if diags.Append(req.Identity.Get(ctx, &m)...); diags.HasError() {
		return adapter.Locator{}, "", diags
	}
	account, machineID := m.Account.ValueString(), m.ID.ValueString()
	loc, err := adapter.ParseLocator(account)
	if err == nil {
		loc, err = checked(reg, loc)
	}
	if err != nil {
		diags.AddError(summary, fmt.Sprintf("identity.account %s is not a compute_provider_account's id: %s\n\n"+
			"Set `account` to the account's id attribute, e.g. compute_provider_account.NAME.id.",
			adapter.Quoted(adapter.RedactID(account)), tfdiag.Message(err)))
		return loc, machineID, diags
	}
	if err := machineIDOf(reg, loc, "identity.id", machineID); err != nil {
		diags.AddError(summary, fmt.Sprintf("%s\n\nSet `id` to the machine's own id at the backend, as terraform query or "+
			"compute_machines lists it.", tfdiag.Message(err)))
	}
	return loc, machineID, diags
}

// checked is reg.Checked, or l as it is without a registry.
func checked(reg *adapter.Registry, l adapter.Locator) (adapter.Locator, error) {
	if reg == nil {
		return l, nil
	}
	return reg.Checked(l)
}

// machineIDOf checks machineID against the rule of the account's adapter;
// named is how the message names it (MACHINE_ID, identity.id).
func machineIDOf(reg *adapter.Registry, l adapter.Locator, named, machineID string) error {
	if reg == nil {
		return nil
	}
	def, err := reg.Definition(l.Kind)
	if err != nil {
		return err
	}
	return CheckMachineID(named, machineID, def)
}

// CheckMachineID refuses a machine id the adapter of def cannot have
// given; named is how the message names it. A number is no secret,
// whatever its length: it is shown, and one past every machine id's range
// is called what it is. Anything else is shown only redacted.
func CheckMachineID(named, machineID string, def adapter.Definition) error {
	if def.Rules.MachineID.Allows(machineID) {
		return nil
	}
	shown := adapter.Quoted(adapter.Redacted(machineID))
	if digits(machineID) {
		shown = strconv.Quote(machineID)
		if _, err := strconv.ParseUint(machineID, 10, 64); errors.Is(err, strconv.ErrRange) {
			return adapter.Errorf(adapter.InvalidInput, "%s %s is too large for a machine id of the %s adapter, which must be %s",
				named, shown, def.Kind, def.Rules.MachineID.Text)
		}
	}
	return adapter.Errorf(adapter.InvalidInput, "%s %s is not a machine id of the %s adapter, which must be %s",
		named, shown, def.Kind, def.Rules.MachineID.Text)
}

// digits reports whether s is a non-empty run of decimal digits.
func digits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// Import is the ImportState of a machine resource: it takes the import's
// Target and records it as the resource's id and account attributes, which
// a read fills out from, and the identity beside them (Follow). accounts is
// nil before the provider is configured; what names the resource as
// Target's does. It returns the account and the machine's id, and whether
// the import recorded them, for the resource to check and record what else
// it knows.
func Import(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse, accounts *adapter.Accounts, what string) (adapter.Locator, string, bool) {
	defer Follow(ctx, resp.Identity, &resp.Diagnostics, &resp.State)
	var reg *adapter.Registry
	if accounts != nil {
		reg = accounts.Registry
	}
	loc, machineID, diags := Target(ctx, req, reg, what)
	if resp.Diagnostics.Append(diags...); diags.HasError() {
		return loc, "", false
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(ID), types.StringValue(machineID))...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(Account), types.StringValue(loc.String()))...)
	return loc, machineID, !resp.Diagnostics.HasError()
}
