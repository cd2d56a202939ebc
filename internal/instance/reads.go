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
// it is now. Being part of an apply, it rides out what writes ride out,
// an unreachable endpoint included, until the operation's timeout.
func (r *Resource) fresh(ctx context.Context, acc *adapter.Cached, id string) (adapter.Machine, error) {
	return r.retryRead(ctx, id, acc.Fresh)
}

func (r *Resource) retryRead(ctx context.Context, id string, get func(context.Context, string) (adapter.Machine, error)) (adapter.Machine, error) {
	var m adapter.Machine
	err := adapter.Retry(ctx, r.clock(), adapter.DefaultBackoff, "read machine "+id, func(ctx context.Context) error {
		var err error
		m, err = get(ctx, id)
		return err
	})
	return m, err
}
