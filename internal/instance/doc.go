// Package instance is the compute_instance resource: one machine on an
// account. It checks the name and labels against the rules the account's
// adapter declares, and offer, image and location against the catalog, at
// plan time; creates idempotently (the key comes from the account's scope
// and the name, so an interrupted apply that is simply run again finds its
// machine), saves the id before waiting, reads through the account's shared
// listing, and deletes only what carries the provider's mark. Power goes one
// way (power.go): off is a graceful shutdown bounded by shutdown_timeout,
// then a hard poweroff; a change of triggers_restart (restart.go) is a
// reboot bounded the same way, then a reset. Its identity (the account and
// the machine's id, internal/tfidentity) follows the state through every
// operation; its list resource (list.go) is the listing compute_machines
// shares (internal/tflist) shaped as instances for terraform query.
//
// It imports internal/adapter, internal/tflist, internal/power,
// internal/tfdiag, internal/tfidentity, internal/tfstate and
// internal/tftimeouts, never a concrete adapter.
package instance
