// Package provider is the Terraform provider "compute": its schema (a
// sensitive map of secrets that provider:// references name), the wiring of
// the adapter registry and of the adapters' and the contract's logs to tflog
// (log.go), and the resources and data sources it serves.
//
// It is the one Terraform-layer package that knows the concrete adapters: it
// imports internal/adapter/<name> only to register their Definitions. The
// resource packages it serves (internal/account, internal/instance,
// internal/offers) know internal/adapter alone.
package provider
