// Package machines is the compute_machines data source: the inventory of one
// or more accounts, every machine each holds, managed by the provider or
// not, with the state compute_instance shows, so that import blocks with
// for_each can adopt a fleet the provider did not create. It only reads:
// a machine is marked as managed by the first apply after its import
// (compute_instance), never by this listing. The listing and its filters
// are internal/tflist's, which serves the list resources of
// compute_instance and compute_bootstrap_host for terraform query too.
//
// It imports internal/adapter, internal/tflist, internal/tftimeouts and
// internal/tfvalidate, never a concrete adapter.
package machines
