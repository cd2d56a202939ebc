package tfidentity

import (
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// WarnImportedClaim warns of an import that took a machine carrying a claim,
// which the import shares: the way a machine moves between states (state rm
// there, import here), but also how a second state comes to act on a machine
// another still lists. The provider cannot tell the two apart, since the
// claim stays on the machine after the state rm, so it says what each means.
// A confirmed claim is a state's that has refreshed the machine since; an
// unconfirmed one was written within the hour by a create or by the first
// apply after an import, of another state or of this configuration's own
// interrupted apply whose state was not saved. account names the account as
// messages do (Registry.Label); now dates an unconfirmed claim.
func WarnImportedClaim(diags *diag.Diagnostics, m adapter.Machine, machineID, account string, now time.Time) {
	if m.Claim == "" {
		return
	}
	whose := "the confirmed claim of another Terraform state: a state that created or imported it and has refreshed it since"
	rerun := ""
	if m.Unconfirmed {
		whose = "a claim no state has confirmed yet, written " + claimAge(m.Claim, now) + " by a create or by the first apply " +
			"after an import: another state's (a create with the same account and name, or an import of the machine), or this " +
			"configuration's own apply that was interrupted before its state was saved"
		rerun = " If this is the rerun of such an apply, or no other state lists the machine, nothing more is needed."
	}
	diags.AddWarning("Imported machine may be held by another state", fmt.Sprintf("Machine %s (%q) on account %s carries %s. "+
		"This import took the machine with that claim, as it is, so while the other state still lists the machine both states "+
		"hold it, and an apply or destroy in either changes, powers or deletes it. If you are moving the machine here, run "+
		"`terraform state rm ADDRESS` in the other state (or apply a `removed` block there with `lifecycle { destroy = false }`); "+
		"if that is done already, nothing more is needed. If the machine is not to move, remove it from this state again "+
		"(`terraform state rm` here, or delete the import block before applying).%s", machineID, m.Name, account, whose, rerun))
}

// claimAge says when claim was made, as a message reads it.
func claimAge(claim string, now time.Time) string {
	made, ok := adapter.ClaimTime(claim)
	if !ok {
		return "at an unknown time"
	}
	return fmt.Sprintf("%s ago", now.Sub(made).Round(time.Minute))
}
