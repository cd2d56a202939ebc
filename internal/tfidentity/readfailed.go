package tfidentity

import (
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
)

// ImportReadFailed reports the failures of the read an import makes that
// mean something else than they do on a refresh, and says whether it did.
// A machine the named account does not have is no machine gone from state
// but a wrong id or account, which Terraform would only call "non-existent";
// an account whose settings do not resolve is the one the import names, as
// given, not one recorded by an earlier apply. what names the resource
// ("instance"), account the account as messages do (Registry.Describe).
func ImportReadFailed(diags *diag.Diagnostics, what, machineID, account string, err error) bool {
	summary := "Unable to import " + what
	switch {
	case adapter.IsNotFound(err):
		diags.AddError(summary, fmt.Sprintf("Machine %s does not exist on %s: %s\n\nNothing was imported. Check the machine id, "+
			"the backend's own id of the machine (as `terraform query` or data.compute_machines lists it), and that the import "+
			"names the account that holds it, by reference: `compute_provider_account.NAME.id` in the import block's id "+
			"(`${compute_provider_account.NAME.id}/%s`) or identity (`account = compute_provider_account.NAME.id`).",
			machineID, account, tfdiag.Message(err), machineID))
	case adapter.Is(err, adapter.InvalidConfig):
		tfdiag.AddError(diags, nil, summary, fmt.Sprintf("Reading machine %s through the account the import names (%s) failed; "+
			"nothing was imported. An import reads through the account its id or identity names, with that account's settings as "+
			"written there: make them resolve for this run (set the environment variable a secret reference names, for one), or name "+
			"an account of this configuration by reference (`compute_provider_account.NAME.id`) rather than a literal account id.",
			machineID, account), err)
	default:
		return false
	}
	return true
}
