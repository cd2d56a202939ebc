package machines

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
)

// addListError reports a failed inventory of one account on its list index,
// with the way out for it.
func addListError(ctx context.Context, diags *diag.Diagnostics, t target, err error) {
	p := path.Root("accounts").AtListIndex(t.index)
	at := func(string) (path.Path, bool) { return p, true }
	var detail string
	switch {
	case ctx.Err() != nil:
		// Terraform stopped the command (Ctrl-C): the backend is not to blame.
		detail = fmt.Sprintf("Listing the machines of account %s was interrupted, because the command was stopped. Run the command again.", t.shown)
	case tfdiag.UnknownUntilApply(err):
		detail = fmt.Sprintf("The machines of account %s cannot be listed during plan: its secret comes from the provider block's secrets, "+
			"which are not known until apply. Use an env:// or file:// reference for accounts that compute_machines reads.", t.shown)
	case adapter.Unresolved(err):
		// Unlike a plan-time check, a data source cannot wait for apply:
		// its result is part of the plan.
		detail = fmt.Sprintf("The machines of account %s cannot be listed: its secret reference cannot be resolved where Terraform runs, and "+
			"compute_machines is read during plan, so the secret must be there already. Set it in the environment that runs terraform plan, "+
			"or fix the reference.", t.shown)
	default:
		detail = fmt.Sprintf("Listing the machines of account %s failed. %s", t.shown, wayOut(err, t.endpoint))
	}
	tfdiag.AddError(diags, at, summary, detail, err)
}

// wayOut is tfdiag.WayOut, except for failures to reach the backend, whose
// way out names the account's endpoint.
func wayOut(err error, endpoint string) string {
	backend := "the account's backend"
	if ep := endpoint; ep != "" {
		backend = "the account's endpoint " + adapter.Redacted(ep)
	}
	switch {
	case adapter.NoAnswer(err):
		return "The backend took the request but never answered it, not even when it was sent once more, so it was not retried further; " +
			"check that " + backend + " is right and the backend is up, then run the command again."
	case adapter.Is(err, adapter.Transient):
		return "The backend failed or could not be reached, and kept failing while the read was retried until timeouts.read; " +
			"check that " + backend + " is reachable from where Terraform runs, then run the command again, or raise timeouts.read to retry for longer."
	}
	return tfdiag.WayOut(err)
}
