package hcloud

import (
	"context"
	"sync"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// lazy loads a value once per account and shares the load between
// concurrent callers. Each waiter selects on its own context, so a caller
// that gives up returns at once; a failed load is not kept, and a load
// that failed only because its own caller gave up is run again by the next
// waiter instead of failing everyone.
type lazy[T any] struct {
	mu  sync.Mutex
	cur *flight[T]
}

type flight[T any] struct {
	done chan struct{}
	val  T
	err  error
}

func (l *lazy[T]) get(ctx context.Context, load func(context.Context) (T, error)) (T, error) {
	for {
		l.mu.Lock()
		f := l.cur
		if f == nil {
			f = &flight[T]{done: make(chan struct{})}
			l.cur = f
			l.mu.Unlock()
			f.val, f.err = load(ctx)
			if f.err != nil {
				l.mu.Lock()
				l.cur = nil
				l.mu.Unlock()
			}
			close(f.done)
			return f.val, f.err
		}
		l.mu.Unlock()
		select {
		case <-ctx.Done():
			var zero T
			return zero, classify(ctx.Err())
		case <-f.done:
		}
		if f.err == nil || !adapter.Canceled(f.err) {
			return f.val, f.err
		}
	}
}
