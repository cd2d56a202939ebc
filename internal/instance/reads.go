package instance

import (
	"context"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// read reads the machine through the account's shared listing, as a
// refresh does: a read made while planning (adapter.Cached.PlanRead).
// Transient and RateLimited failures are retried with the writes' backoff
// until ctx (the read timeout) ends, a request the backend never answered
// is not (see adapter.RetryDecision), and an endpoint that cannot be
// reached at all is given up after unreachable, counted across every read
// through the account. Authoritative absence (NotFound) ends the retries
// at once and comes back as is; no other failure, however often it
// repeats, is ever turned into absence.
func (r *Resource) read(ctx context.Context, acc *adapter.Cached, id string, unreachable time.Duration) (adapter.Machine, error) {
	var m adapter.Machine
	err := acc.PlanRead(ctx, adapter.PlanReads(unreachable), "read machine "+id, func(ctx context.Context) error {
		var err error
		m, err = acc.Get(ctx, id)
		return err
	})
	return m, err
}

// fresh is a direct read that bypasses the listing: the waits and
// read-backs of create, update and delete, which must see the machine as
// it is now (power.Path.Fresh).
func (r *Resource) fresh(ctx context.Context, acc *adapter.Cached, id string) (adapter.Machine, error) {
	return r.powerPath().Fresh(ctx, acc, id)
}
