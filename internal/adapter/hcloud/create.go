package hcloud

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"strconv"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Create is idempotent by call.IdempotencyKey (rules 1, idempotent create,
// and 2, adoption and holding, of internal/adapter's package documentation),
// through the contract's adapter.CreateFlow: find the server by its key
// label, adopt it when adapter.Adoptable allows, otherwise create it with
// its marks in the same call (so there is no moment at which our server
// exists unmarked), and after any failed create (an error, a dropped or
// unanswered response, or the name taken because a retry of the POST met
// the server its first attempt made) look again.
//
// It returns as soon as the API accepted the server; waiting for it to run
// is the caller's business, through Get.
func (a *account) Create(ctx context.Context, call adapter.Call, req adapter.CreateRequest) (adapter.Machine, error) {
	if req.Location == "" {
		req.Location = a.location
	}
	what := "create server " + strconv.Quote(req.Name)
	if err := checkCreate(call, req); err != nil {
		return adapter.Machine{}, fail(what, err)
	}
	mark := adapter.Mark{Key: call.IdempotencyKey, Fingerprint: adapter.Fingerprint(req), Claim: call.Claim, Unconfirmed: true}
	b := &backend{a: a, what: what, req: req, mark: mark, seen: map[string]*hcloud.Server{}}
	return adapter.CreateFlow{
		What: what, Call: call, Fingerprint: mark.Fingerprint, Clock: a.clock,
		Find: b.find, Make: b.make, Take: b.take, Again: b.again,
	}.Run(ctx)
}

// backend is one create's steps for the flow; seen keeps the servers its
// look-ups returned, which take writes onto.
type backend struct {
	a    *account
	what string
	req  adapter.CreateRequest
	mark adapter.Mark
	seen map[string]*hcloud.Server
}

// found records s for take and returns it as the contract's machine.
func (b *backend) found(s *hcloud.Server) (adapter.Machine, bool, error) {
	m := toMachine(s)
	b.seen[m.ID] = s
	return m, true, nil
}

func (b *backend) find(ctx context.Context) (adapter.Machine, bool, error) {
	s, err := b.a.findByKey(ctx, b.mark.Key)
	if err != nil {
		return adapter.Machine{}, false, fail(b.what, err)
	}
	if s == nil {
		return adapter.Machine{}, false, nil
	}
	return b.found(s)
}

func (b *backend) make(ctx context.Context) (adapter.Machine, error) {
	startAfterCreate := b.req.PowerOn
	res, _, err := b.a.client.Server.Create(ctx, hcloud.ServerCreateOpts{
		Name:             b.req.Name,
		ServerType:       &hcloud.ServerType{Name: b.req.OfferID},
		Image:            imageRef(b.req.Image),
		Location:         &hcloud.Location{Name: b.req.Location},
		UserData:         b.req.UserData,
		StartAfterCreate: &startAfterCreate,
		Labels:           labelMarks.Put(b.req.Labels, b.mark),
	})
	switch {
	case err == nil && res.Server != nil:
		// The start, when asked for, is one of the create's next actions:
		// followed, not inferred from the status.
		b.a.starts.follow(res.Server.ID, res.NextActions)
		return toMachine(res.Server), nil
	case err == nil:
		return adapter.Machine{}, adapter.Errorf(adapter.Transient, "%s: the API accepted the create but returned no server", b.what)
	case ctx.Err() != nil:
		return adapter.Machine{}, fail(b.what+" (the API may have accepted it; applying again finds it by its key)", err)
	}
	return adapter.Machine{}, fail(b.what, err)
}

// again looks for the server after a failed create: by its key, and when
// the name was taken, by the name, which a server of ours carries before
// the label look-up shows it.
func (b *backend) again(ctx context.Context, err error) (adapter.Machine, bool, error) {
	s, lookErr := b.a.findByKey(ctx, b.mark.Key)
	switch {
	case lookErr == nil && s != nil:
		return b.found(s)
	case lookErr == nil && adapter.NoAnswer(err):
		return adapter.Machine{}, false, nil
	case !hcloud.IsError(err, hcloud.ErrorCodeUniquenessError):
		return adapter.Machine{}, false, err
	}
	holder, _, nameErr := b.a.client.Server.GetByName(ctx, b.req.Name)
	switch {
	case nameErr != nil:
		return adapter.Machine{}, false, fail(b.what+": the name is taken, and reading the server that holds it failed", nameErr)
	case holder == nil:
		// The name was freed since: the next attempt may succeed.
		return adapter.Machine{}, false, &adapter.Error{Code: adapter.Transient, Err: err,
			Message: b.what + ": the name was taken when the create ran and is free now; the create can be tried again"}
	}
	if _, m := markOf(holder); m.Key == b.mark.Key {
		// Ours, though the label look-up did not show it yet.
		return b.found(holder)
	}
	return adapter.Machine{}, false, &adapter.Error{Code: adapter.Conflict, Field: "name", Err: err,
		Message: b.what + ": the name is taken by " + describe(holder) + ", which this resource did not create; " +
			"to manage that server, import it (`terraform import` or an import block with its id " + strconv.FormatInt(holder.ID, 10) + "), " +
			"otherwise choose another name"}
}

// take writes this create's claim and labels onto a server found by its
// key, in one update: the state that adopts it holds it from now on. A
// server that already carries them (this very create's, its answer lost)
// costs no write.
func (b *backend) take(ctx context.Context, found adapter.Machine, _ bool) (adapter.Machine, error) {
	s := b.seen[found.ID]
	if labels := labelMarks.Put(b.req.Labels, b.mark); !maps.Equal(labels, s.Labels) {
		updated, _, err := b.a.client.Server.Update(ctx, s, hcloud.ServerUpdateOpts{Labels: labels})
		if err != nil {
			return adapter.Machine{}, fail(b.what+": write this resource's claim onto "+describe(s)+", found by its key", err)
		}
		if updated != nil {
			s = updated
		}
	}
	// Adopted while its create may still be starting it: an off server
	// whose start runs is pending, never stopped.
	return b.a.machine(ctx, s), nil
}

func checkCreate(call adapter.Call, req adapter.CreateRequest) error {
	// The call itself is the flow's to check (adapter.CheckCall); a key
	// is written as a label value, which the contract does not require.
	switch {
	case call.IdempotencyKey != "" && !validLabelValue(call.IdempotencyKey):
		return adapter.Errorf(adapter.InvalidInput, "the idempotency key is not a valid label value")
	case req.Name == "":
		return adapter.Errorf(adapter.InvalidInput, "the name is empty; set name").WithField("name")
	case req.OfferID == "":
		return adapter.Errorf(adapter.InvalidInput, "offer_id is empty; set it to a server type such as cx22 (see the compute_offers data source)").WithField("offer_id")
	case req.Image == "":
		return adapter.Errorf(adapter.InvalidInput, "image is empty; set it to an image name such as ubuntu-24.04").WithField("image")
	}
	return labelMarks.CheckUser(req.Labels)
}

// imageRef names an image by id when the value is a number (snapshots and
// backups have no name), by name otherwise.
func imageRef(image string) *hcloud.Image {
	if id, err := strconv.ParseInt(image, 10, 64); err == nil && id > 0 {
		return &hcloud.Image{ID: id}
	}
	return &hcloud.Image{Name: image}
}

// findByKey returns the server carrying key, or nil. Should more than one
// exist, one that is not being deleted and then the oldest wins, so every
// caller picks the same one.
func (a *account) findByKey(ctx context.Context, key string) (*hcloud.Server, error) {
	servers, err := a.listServers(ctx, labelMarks.KeySelector(key), "look for a server carrying this resource's key")
	if err != nil || len(servers) == 0 {
		return nil, err
	}
	slices.SortFunc(servers, func(x, y *hcloud.Server) int {
		xd, yd := x.Status == hcloud.ServerStatusDeleting, y.Status == hcloud.ServerStatusDeleting
		switch {
		case xd != yd && xd:
			return 1
		case xd != yd:
			return -1
		}
		return cmp.Compare(x.ID, y.ID)
	})
	return servers[0], nil
}
