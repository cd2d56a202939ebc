// Package offers is the compute_offers data source: the catalog of one or
// more accounts, filtered, with stable ids, sorted by price.
//
// It imports internal/adapter and internal/tfdiag, never a concrete adapter.
package offers
