// Package offers is the compute_offers data source: the catalog of one or
// more accounts, filtered, with stable ids, sorted by price; a catalog
// whose backend fails is retried until the read timeout.
//
// It imports internal/adapter, internal/tfdiag, internal/tftimeouts and
// internal/tfvalidate, never a concrete adapter.
package offers
