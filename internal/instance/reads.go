package instance

import (
	"context"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// read reads the machine through the account's shared listing, as a
// refresh does. Like every read below, it rides out what writes ride out:
// Transient and RateLimited failures are retried with the writes' backoff
// until ctx (the operation's timeout) ends, and a request the backend
// never answered is not (see adapter.RetryDecision). Authoritative absence
// (NotFound) ends the retries at once and comes back as is; no other
// failure, however often it repeats, is ever turned into absence.
func (r *Resource) read(ctx context.Context, acc *adapter.Cached, id string) (adapter.Machine, error) {
	return r.retryRead(ctx, id, acc.Get)
}

// fresh is read for a direct read that bypasses the listing: the waits and
// read-backs of create, update and delete, which must see the machine as
// it is now.
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
