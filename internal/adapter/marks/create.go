package marks

import (
	"context"
	"strconv"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Create is the contract's create (adapter.CreateFlow) for a backend whose
// marks are labels and whose listing takes a label selector: the backend
// gives its three calls over labels, and Create finds by the key label,
// makes with the whole mark in the create call, and writes the claim onto
// a machine it adopts. It is the kit of a backend of this shape (servers
// with labels over an API); one with other marks writes its CreateFlow.
type Create struct {
	Call    adapter.Call
	Request adapter.CreateRequest
	// Clock gives the adoption window its now.
	Clock adapter.Clock
	// Noun names the backend's machines in messages ("server").
	Noun string
	// Find lists every machine selector selects.
	Find func(ctx context.Context, selector string) ([]adapter.Machine, error)
	// Make creates the machine Request asks for, with labels, and returns
	// it as the backend answers.
	Make func(ctx context.Context, labels map[string]string) (adapter.Machine, error)
	// Relabel replaces the labels of machine id and returns it as the
	// backend answers.
	Relabel func(ctx context.Context, id string, labels map[string]string) (adapter.Machine, error)
}

// Create runs c, after refusing a user's label under the prefix.
func (l Labels) Create(ctx context.Context, c Create) (adapter.Machine, error) {
	if err := l.CheckUser(c.Request.Labels); err != nil {
		return adapter.Machine{}, err
	}
	fp := adapter.Fingerprint(c.Request)
	return adapter.CreateFlow{What: "create " + c.Noun + " " + strconv.Quote(c.Request.Name), Call: c.Call, Fingerprint: fp, Clock: c.Clock,
		Find: func(ctx context.Context) (adapter.Machine, bool, error) {
			found, err := c.Find(ctx, l.KeySelector(c.Call.IdempotencyKey))
			if err != nil || len(found) == 0 {
				return adapter.Machine{}, false, err
			}
			return found[0], true, nil
		},
		Make: func(ctx context.Context) (adapter.Machine, error) {
			return c.Make(ctx, l.Put(c.Request.Labels, adapter.Mark{Key: c.Call.IdempotencyKey, Fingerprint: fp, Claim: c.Call.Claim, Unconfirmed: true}))
		},
		Take: func(ctx context.Context, found adapter.Machine, own bool) (adapter.Machine, error) {
			if own {
				return found, nil
			}
			mark := adapter.Mark{Key: found.Key, Fingerprint: found.Fingerprint, Claim: c.Call.Claim, Unconfirmed: true}
			return c.Relabel(ctx, found.ID, l.Put(found.Labels, mark))
		},
	}.Run(ctx)
}
