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

// Create is idempotent by call.IdempotencyKey (DESIGN §3 rules 1 and 2).
//
// It looks the key up first, unless the caller's shared listing has just
// shown it absent (call.KeyAbsent), and adopts what an earlier attempt
// created when the fingerprint matches. Otherwise it creates the server with its marks in
// the same call, so there is no moment at which our server exists unmarked.
// After any failed create (an error, a dropped or unanswered response, or
// the name taken because a retry of the POST met the server its first
// attempt made) it looks the key up again and returns the winner.
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

	if !call.KeyAbsent {
		found, err := a.findByKey(ctx, mark.Key)
		if err != nil {
			return adapter.Machine{}, fail(what, err)
		}
		if found != nil {
			return a.adopt(ctx, what, found, call, req, mark)
		}
	}

	startAfterCreate := req.PowerOn
	res, _, err := a.client.Server.Create(ctx, hcloud.ServerCreateOpts{
		Name:             req.Name,
		ServerType:       &hcloud.ServerType{Name: req.OfferID},
		Image:            imageRef(req.Image),
		Location:         &hcloud.Location{Name: req.Location},
		UserData:         req.UserData,
		StartAfterCreate: &startAfterCreate,
		Labels:           withMarks(req.Labels, mark),
	})
	if err == nil && res.Server != nil {
		// The start, when asked for, is one of the create's next actions:
		// followed, not inferred from the status.
		a.starts.follow(res.Server.ID, res.NextActions)
		return toMachine(res.Server), nil
	}
	if err == nil {
		err = adapter.Errorf(adapter.Transient, "the API accepted the create but returned no server")
	}
	return a.afterFailedCreate(ctx, what, call, req, mark, err)
}

func checkCreate(call adapter.Call, req adapter.CreateRequest) error {
	switch {
	case call.IdempotencyKey == "":
		return adapter.Errorf(adapter.InvalidInput, "no idempotency key was given; every create needs one")
	case !validLabelValue(call.IdempotencyKey):
		return adapter.Errorf(adapter.InvalidInput, "the idempotency key is not a valid label value")
	case !validLabelValue(call.Claim):
		return adapter.Errorf(adapter.InvalidInput, "the claim is not a valid label value")
	case req.Name == "":
		return adapter.Errorf(adapter.InvalidInput, "the name is empty; set name").WithField("name")
	case req.OfferID == "":
		return adapter.Errorf(adapter.InvalidInput, "offer_id is empty; set it to a server type such as cx22 (see the compute_offers data source)").WithField("offer_id")
	case req.Image == "":
		return adapter.Errorf(adapter.InvalidInput, "image is empty; set it to an image name such as ubuntu-24.04").WithField("image")
	}
	return checkUserLabels(req.Labels)
}

// imageRef names an image by id when the value is a number (snapshots and
// backups have no name), by name otherwise.
func imageRef(image string) *hcloud.Image {
	if id, err := strconv.ParseInt(image, 10, 64); err == nil && id > 0 {
		return &hcloud.Image{ID: id}
	}
	return &hcloud.Image{Name: image}
}

// afterFailedCreate decides what a failed create means: the API may have
// committed it before the failure reached us.
func (a *account) afterFailedCreate(ctx context.Context, what string, call adapter.Call, req adapter.CreateRequest, mark adapter.Mark, err error) (adapter.Machine, error) {
	if ctx.Err() != nil {
		return adapter.Machine{}, fail(what+" (the API may have accepted it; applying again finds it by its key)", err)
	}
	found, lookErr := a.findByKey(ctx, mark.Key)
	if lookErr == nil && found != nil {
		return a.adopt(ctx, what, found, call, req, mark)
	}
	if lookErr == nil && adapter.NoAnswer(err) {
		// The transport never sends a POST twice; the look-up that just
		// answered proves this one made nothing (yet: a create committed
		// late is found by the next attempt's look-up, or refused by the
		// name), so the create may be sent again. The error no longer
		// carries ErrNoAnswer, which would stop the caller's retry.
		return adapter.Machine{}, adapter.Errorf(adapter.Transient,
			"%s: the API did not answer the create, and no server carries this resource's key; the create can be sent again", what)
	}
	if hcloud.IsError(err, hcloud.ErrorCodeUniquenessError) {
		holder, _, nameErr := a.client.Server.GetByName(ctx, req.Name)
		switch {
		case nameErr != nil:
			return adapter.Machine{}, fail(what+": the name is taken, and reading the server that holds it failed", nameErr)
		case holder == nil:
			// The name was freed since: the next attempt may succeed.
			return adapter.Machine{}, &adapter.Error{Code: adapter.Transient, Err: err,
				Message: what + ": the name was taken when the create ran and is free now; the create can be tried again"}
		}
		if _, m := markOf(holder); m.Key == mark.Key {
			// Ours, though the label lookup did not show it yet.
			return a.adopt(ctx, what, holder, call, req, mark)
		}
		return adapter.Machine{}, &adapter.Error{Code: adapter.Conflict, Field: "name", Err: err,
			Message: what + ": the name is taken by " + describe(holder) + ", which this resource did not create; " +
				"to manage that server, import it (`terraform import` or an import block with its id " + strconv.FormatInt(holder.ID, 10) + "), " +
				"otherwise choose another name"}
	}
	return adapter.Machine{}, fail(what, err)
}

// adopt returns the server an earlier attempt with the same key created,
// when adapter.Adoptable allows it, with this create's claim and labels
// written onto it in one update: the state that adopts it holds it from now
// on. A server that already carries them (this very create's, its answer
// lost) costs no write and is no adoption.
func (a *account) adopt(ctx context.Context, what string, s *hcloud.Server, call adapter.Call, req adapter.CreateRequest, mark adapter.Mark) (adapter.Machine, error) {
	prior := toMachine(s)
	if err := adapter.Adoptable(what, prior, call, mark.Fingerprint, a.clock.Now()); err != nil {
		return adapter.Machine{}, err
	}
	if labels := withMarks(req.Labels, mark); !maps.Equal(labels, s.Labels) {
		updated, _, err := a.client.Server.Update(ctx, s, hcloud.ServerUpdateOpts{Labels: labels})
		if err != nil {
			return adapter.Machine{}, fail(what+": write this resource's claim onto "+describe(s)+", found by its key", err)
		}
		if updated != nil {
			s = updated
		}
	}
	// Adopted while its create may still be starting it: an off server
	// whose start runs is pending, never stopped.
	m := a.machine(ctx, s)
	if prior.Claim != mark.Claim {
		// Found under another claim: an earlier apply's, or another
		// state's. A server already carrying this create's claim is the
		// one this very create made, its answer lost.
		m.Adopted, m.PriorClaim = true, prior.Claim
	}
	return m, nil
}

// findByKey returns the server carrying key, or nil. Should more than one
// exist, one that is not being deleted and then the oldest wins, so every
// caller picks the same one.
func (a *account) findByKey(ctx context.Context, key string) (*hcloud.Server, error) {
	servers, err := a.listServers(ctx, keySelector(key), "look for a server carrying this resource's key")
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
