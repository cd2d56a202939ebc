package tfdiag

import (
	"fmt"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Endpoint is the account's endpoint as settings give it (the setting whose
// role is adapter.RoleEndpoint, or its fallback); "" when the adapter has
// none. The fallback reads the account registry's environment (lookup,
// Registry.Environment). Messages show it through adapter.Redacted.
func Endpoint(def adapter.Definition, settings map[string]string, lookup adapter.EnvLookup) string {
	s, ok := def.Setting(adapter.RoleEndpoint)
	if !ok {
		return ""
	}
	v := settings[s.Name]
	if v == "" {
		v, _ = s.Fallback(lookup)
	}
	return v
}

// Unreachable reports whether err is a read that gave up on an endpoint it
// could not reach, and not one whose certificate the account's settings
// must fix (those keep their InvalidConfig way out).
func Unreachable(err error) bool {
	return adapter.Unreachable(err) && !adapter.Is(err, adapter.InvalidConfig)
}

// UnreachableWayOut is the way out of a read made while planning that gave
// up on the account's endpoint because it could not be reached at all
// (adapter.Unreachable): it names the endpoint (as Endpoint gives it,
// redacted; "" when unknown) and the failure, says that nothing changed, and how to
// retry for longer.
func UnreachableWayOut(endpoint string, err error) string {
	where := "The account's endpoint"
	if endpoint != "" {
		where += " " + adapter.Redacted(endpoint)
	}
	return fmt.Sprintf("%s could not be reached (%s), so the read gave up on it within timeouts.unreachable instead of retrying until "+
		"timeouts.read, and so does every other read through that account in this command. Nothing was changed: the state is kept as it was. "+
		"Check that the endpoint is right and reachable from where Terraform runs (its host name, a firewall or VPN, its TLS certificate), "+
		"then run the command again; set timeouts.unreachable to retry for longer.", where, adapter.ErrorClass(err))
}
