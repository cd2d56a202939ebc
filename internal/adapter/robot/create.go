package robot

import (
	"context"
	"slices"
	"strconv"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Create claims a server for the request (rules 1, idempotent create, and 2,
// adoption and holding, of internal/adapter's package documentation), in
// this order:
//
//  1. the server whose name carries this request's key (an earlier
//     attempt's, found in the listing): adopted when adapter.Adoptable
//     allows it;
//  2. the server machine_id names, when it is unnamed or named exactly
//     like the request;
//  3. a free server of the offer in the location: unnamed, ready, not
//     cancelled, the lowest number first;
//  4. a server an order of ours is delivering (order.go);
//  5. a new order, when the account allows ordering and the offer's
//     monthly price is within the request's max_monthly_price.
//
// Claiming is one write, the server name with the mark, so there is no
// moment at which a claimed server is unmarked. Robot has no conditional
// write, so the claim is read back: a concurrent create that wrote its own
// name over ours has the server, and this one takes the next. The order
// (find, adopt, claim, look again) is the contract's adapter.CreateFlow.
func (a *account) Create(ctx context.Context, call adapter.Call, req adapter.CreateRequest) (adapter.Machine, error) {
	if req.Location == "" {
		req.Location = a.location
	}
	what := "claim a server for " + strconv.Quote(req.Name)
	if err := a.checkCreate(req); err != nil {
		return adapter.Machine{}, err
	}
	mark := claimed{Name: req.Name, Claim: call.Claim, Fingerprint: shortFP(adapter.Fingerprint(req)), Managed: true, Unconfirmed: true}
	// A claim picks from the listing its look-up by key takes, so the
	// look-up is never skipped.
	call.KeyAbsent = false
	c := &claimer{a: a, what: what, req: req, mark: mark, key: call.IdempotencyKey, seen: map[string]server{}}
	return adapter.CreateFlow{
		What: what, Call: call, Fingerprint: mark.Fingerprint, Clock: a.clock, Attempts: maxClaimAttempts,
		Find: c.find, Make: c.make, Take: c.take,
	}.Run(ctx)
}

// claimer is one create's steps for the flow: list keeps the listing the
// last look-up took, which make picks from; seen the servers it found.
type claimer struct {
	a    *account
	what string
	req  adapter.CreateRequest
	mark claimed
	key  string
	list []server
	// listedAt is list's tick in the account's claims.
	listedAt uint64
	seen     map[string]server
}

func (c *claimer) find(ctx context.Context) (adapter.Machine, bool, error) {
	listedAt := c.a.claims.listing()
	list, err := c.a.servers(ctx)
	if err != nil {
		return adapter.Machine{}, false, failListing(c.what+": list the account's servers", err)
	}
	c.list, c.listedAt = list, listedAt
	s, ok := c.a.byKey(list, c.key)
	if !ok {
		return adapter.Machine{}, false, nil
	}
	m := c.a.toMachine(s)
	c.seen[m.ID] = s
	return m, true, nil
}

// make claims machine_id's server, a free one or one an order delivers;
// another create's name on it after the write sends the flow back to find.
func (c *claimer) make(ctx context.Context) (adapter.Machine, error) {
	s, done, err := c.a.pick(ctx, c.what, c.list, c.listedAt, c.req)
	if err != nil {
		return adapter.Machine{}, err
	}
	// The hold on the picked server ends however the claim does, a panic
	// included, or no other create of this process could pick it again.
	defer done()
	m, won, err := c.a.claim(ctx, c.what, s, c.mark)
	if err == nil && !won {
		return adapter.Machine{}, adapter.ErrLostRace
	}
	return m, err
}

// take writes this create's claim over the old one on the server found by
// its key; one that already carries it (this very create's, its answer
// lost) costs no write.
func (c *claimer) take(ctx context.Context, found adapter.Machine, own bool) (adapter.Machine, error) {
	if own {
		return found, nil
	}
	s := c.seen[found.ID]
	mark := c.mark
	mark.WasNamed = parseName(s.Name).WasNamed
	if err := c.a.rename(ctx, s.Number, mark.String()); err != nil {
		return adapter.Machine{}, fail(c.what+": write this resource's claim onto "+describe(s)+", found by its key", err)
	}
	got, err := c.a.getServer(ctx, s.Number)
	if err != nil {
		return adapter.Machine{}, fail(c.what+": read back "+describe(s)+" after adopting it", err)
	}
	return c.a.toMachine(got), nil
}

// maxClaimAttempts bounds how often a create loses a free server to a
// concurrent one before it gives the caller's retry the turn.
const maxClaimAttempts = 5

// checkCreate refuses a request Robot cannot take; the call is the flow's
// to check (adapter.CheckCall).
func (a *account) checkCreate(req adapter.CreateRequest) error {
	switch {
	case !validName(req.Name):
		return adapter.Errorf(adapter.InvalidInput, "name %s is not a Robot server name: it must be %s", adapter.Quoted(adapter.Redacted(req.Name)), rules.MachineName.Text).WithField(adapter.FieldName)
	case len(req.Labels) > 0:
		return adapter.Errorf(adapter.InvalidInput, "Robot has no labels; remove labels or set them to {}").WithField(adapter.FieldLabels)
	case req.MachineID == "" && req.OfferID == "":
		return adapter.Errorf(adapter.InvalidInput, "set offer_id (a product such as AX42, see compute_offers) or machine_id (a server number)").WithField(adapter.FieldOfferID)
	case req.UserData != "":
		return errUserData()
	}
	return nil
}

// errUserData refuses user data, at plan (Validate) and at create alike.
func errUserData() error {
	return adapter.Errorf(adapter.InvalidInput, "Robot servers take no user data at create; deliver files with compute_bootstrap_host instead").WithField(adapter.FieldUserData)
}

// byKey finds the server carrying key: a managed name whose key, derived
// from the name and the account, is key. Should there be more than one,
// the lowest number wins, so every caller picks the same.
func (a *account) byKey(list []server, key string) (server, bool) {
	var found []server
	for _, s := range list {
		c := parseName(s.Name)
		if c.Managed && adapter.IdempotencyKey(a.scope, c.Name) == key {
			found = append(found, s)
		}
	}
	if len(found) == 0 {
		return server{}, false
	}
	slices.SortFunc(found, func(x, y server) int { return x.Number - y.Number })
	return found[0], true
}

// pick chooses the server to claim: machine_id's, a free one no other
// create of this process is claiming (claims.go), or one an order
// delivers; done is called when the claim write has ended.
func (a *account) pick(ctx context.Context, what string, list []server, listedAt uint64, req adapter.CreateRequest) (s server, done func(), err error) {
	done = func() {}
	if req.MachineID != "" {
		s, err = pickMachine(what, list, req)
		return s, done, err
	}
	if s, held, ok := a.claims.take(list, listedAt, func(s server) bool {
		return s.Name == "" && s.Status == statusReady && !s.Cancelled && s.Product == req.OfferID && locationOf(s.DC) == req.Location
	}); ok {
		return s, held, nil
	}
	s, err = a.delivered(ctx, what, list, req)
	return s, done, err
}

// pickMachine is the server machine_id names, when it may be claimed.
func pickMachine(what string, list []server, req adapter.CreateRequest) (server, error) {
	n, err := parseID(req.MachineID)
	if err != nil {
		return server{}, adapter.WithFieldOf(err, fieldMachineID)
	}
	i := slices.IndexFunc(list, func(s server) bool { return s.Number == n })
	if i < 0 {
		return server{}, adapter.Errorf(adapter.InvalidInput,
			"%s: the account has no server %s; use a server number from Robot's server list (or the compute_machines data source)", what, req.MachineID).WithField(fieldMachineID)
	}
	s := list[i]
	c := parseName(s.Name)
	switch {
	case c.Managed:
		return server{}, adapter.Errorf(adapter.Conflict,
			"%s: server %d is claimed by another resource (%q, its name in Robot %q); pick another machine_id, or release it by destroying that resource",
			what, n, c.Name, s.Name).WithField(fieldMachineID)
	case s.Name != "" && s.Name != req.Name:
		return server{}, adapter.Errorf(adapter.Conflict,
			"%s: server %d is named %q in Robot, which says it is in use; rename it in Robot to %q (or to nothing) to let this resource claim it, or pick another machine_id",
			what, n, s.Name, req.Name).WithField(fieldMachineID)
	case s.Cancelled:
		return server{}, adapter.Errorf(adapter.InvalidState,
			"%s: server %d is cancelled; withdraw the cancellation in Robot or pick another machine_id", what, n).WithField(fieldMachineID)
	}
	return s, nil
}

// claim writes mark onto s and reads it back. won is false when another
// create's name is on the server after the write: the caller picks again.
func (a *account) claim(ctx context.Context, what string, s server, mark claimed) (adapter.Machine, bool, error) {
	if s.Name != "" && s.Name != mark.Name {
		// Named since it was picked (a create that waited on the same
		// order claimed it first): pick again.
		return adapter.Machine{}, false, nil
	}
	mark.WasNamed = s.Name == mark.Name
	if err := a.rename(ctx, s.Number, mark.String()); err != nil {
		// The write may have been committed before the failure reached
		// us: the caller's retry lists again and finds it by its key.
		return adapter.Machine{}, false, fail(what+": write the claim onto "+describe(s)+" (applying again finds it if the write was committed)", err)
	}
	got, err := a.getServer(ctx, s.Number)
	if err != nil {
		return adapter.Machine{}, false, fail(what+": read back "+describe(s)+" after claiming it (applying again finds it by its key)", err)
	}
	if got.Name != mark.String() {
		return adapter.Machine{}, false, nil
	}
	return a.toMachine(got), true, nil
}

// rename writes a server name.
func (a *account) rename(ctx context.Context, n int, name string) error {
	_, err := a.renamed(ctx, n, name)
	return err
}

// renamed writes a server name and returns the server as the write's answer
// shows it: POST /server/{n} answers with the server, so reading it back
// would spend a second request of GET /server/{n}'s hourly budget, which
// the refreshes and waits share.
func (a *account) renamed(ctx context.Context, n int, name string) (server, error) {
	form := map[string][]string{"server_name": {name}}
	var out serverEnvelope
	err := a.c.Post(ctx, "/server/{n}", form, &out, strconv.Itoa(n))
	return out.Server, err
}
