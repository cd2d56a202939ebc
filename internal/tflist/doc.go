// Package tflist is the listing of machines that compute_machines and the
// list resources of terraform query share: the accounts and filters they
// are configured with (Filters), their checks, and the listing itself
// (Lister), every machine of the listed accounts that the filters keep,
// sorted by account, name and machine id. ListResource is the list
// resource of a machine resource over it, whose results carry each
// machine's identity and the resource as the resource's own package shapes
// it (compute_instance's and compute_bootstrap_host's list.go).
//
// It imports internal/adapter, internal/tfdiag, internal/tfidentity and
// internal/tfvalidate, never a concrete adapter or a resource package.
package tflist
