package tfdiag

import (
	"context"
	"fmt"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// The data sources list what each of their accounts holds (offers,
// machines) during plan, retrying a failing backend until their read
// timeout; their failures read alike, and are written here once.

// ListStopped is the detail of a data source's failed listing of one
// account when the backend is not to blame: command (Terraform's own
// context) was stopped, or the account's secret is not known until apply or
// cannot be resolved where Terraform runs. what is what was listed
// ("offers"), dataSource the data source's type name, account the account's
// as messages name it (adapter.Registry.Label). "" when the backend is to
// blame.
func ListStopped(command context.Context, err error, what, dataSource, account string) string {
	switch {
	case command.Err() != nil:
		// Terraform stopped the command (Ctrl-C): the backend is not to blame.
		return fmt.Sprintf("Listing the %s of account %s was interrupted, because the command was stopped. Run the command again.", what, account)
	case UnknownUntilApply(err):
		return fmt.Sprintf("The %s of account %s cannot be listed during plan: its secret comes from the provider block's secrets, "+
			"which are not known until apply. Use an env:// or file:// reference for accounts that %s reads.", what, account, dataSource)
	case adapter.Unresolved(err):
		// Unlike a plan-time check, a data source cannot wait for apply:
		// its result is part of the plan.
		return fmt.Sprintf("The %s of account %s cannot be listed: its secret reference cannot be resolved where Terraform runs, and "+
			"%s is read during plan, so the secret must be there already. Set it in the environment that runs terraform plan, "+
			"or fix the reference.", what, account, dataSource)
	}
	return ""
}

// ListWayOut is WayOut for a data source's listing, whose failures to reach
// the backend name the account's endpoint ("" when its adapter has none)
// and the read's timeout.
func ListWayOut(err error, endpoint string) string {
	backend := "the account's backend"
	if endpoint != "" {
		backend = "the account's endpoint " + adapter.Redacted(endpoint)
	}
	switch {
	case Unreachable(err):
		return UnreachableWayOut(endpoint, err)
	case adapter.NoAnswer(err):
		return "The backend took the request but never answered it, not even when it was sent once more, so it was not retried further; " +
			"check that " + backend + " is right and the backend is up, then run the command again."
	case adapter.Is(err, adapter.Transient):
		return "The backend failed or could not be reached, and kept failing while the read was retried until timeouts.read; " +
			"check that " + backend + " is reachable from where Terraform runs, then run the command again, or raise timeouts.read to retry for longer."
	}
	return WayOut(err)
}

// QueryWayOut is ListWayOut for a list block of terraform query, which has
// no timeouts block: its bounds are the defaults (the read's timeout,
// unreachable after about 30 s), so the way out names none to raise.
func QueryWayOut(err error, endpoint string) string {
	where := "the account's backend"
	if endpoint != "" {
		where = "the account's endpoint " + adapter.Redacted(endpoint)
	}
	switch {
	case Unreachable(err):
		return fmt.Sprintf("%s could not be reached (%s), so the listing gave up on it after %s; nothing was changed. "+
			"Check that the endpoint is right and reachable from where Terraform runs (its host name, a firewall or VPN, its TLS certificate), "+
			"then run terraform query again.", capitalised(where), adapter.ErrorClass(err), adapter.DefaultUnreachable)
	case adapter.NoAnswer(err) || adapter.LimitPastTimeout(err):
	case adapter.Is(err, adapter.Transient):
		return "The backend failed or could not be reached, and kept failing while the listing was retried; check that " + where +
			" is reachable from where Terraform runs, then run terraform query again."
	case adapter.Is(err, adapter.RateLimited):
		return "The backend asked to slow down, and still did when the listing had retried for as long as it waits; run terraform query again later."
	}
	return ListWayOut(err, endpoint)
}

func capitalised(s string) string { return strings.ToUpper(s[:1]) + s[1:] }
