// Package account is the compute_provider_account resource: a validated
// account configuration (which adapter, its settings, secret references)
// whose id is the account's self-contained, secret-free locator. Its schema
// is built from the adapter registry's manifests, one nested block per
// adapter kind, so a new adapter brings its block without code here. Its
// health check rides out a failing backend until the operation's timeout.
//
// It imports internal/adapter, internal/tfdiag and internal/tftimeouts,
// never a concrete adapter.
package account
