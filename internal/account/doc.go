// Package account is the compute_provider_account resource: a validated
// account configuration (which adapter, its settings, secret references)
// whose id is the account's self-contained, secret-free locator. Its schema
// is built from the adapter registry's manifests, one nested block per
// adapter kind, so a new adapter brings its block without code here.
//
// It imports internal/adapter and internal/tfdiag, never a concrete adapter.
package account
