package robot

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Ordering. Robot's order call takes a comment, but "if a comment is
// supplied, the order will be processed manually" (the webservice's own
// parameter table, on both order endpoints): a comment would turn every
// order into one a person handles. So an order carries nothing of ours,
// and an order of ours is recognised by what it does carry: the product,
// the location and the account's ssh_key as its authorized key. Any such
// order still in process, or delivered to a server nobody has named yet,
// is taken as ours and waited for, instead of sending another. That is
// what keeps an order whose answer was lost, or whose apply was killed,
// from being sent twice: every create searches the account's transactions
// (the last 30 days, all Robot lists) before it orders. Two creates for
// the same offer at once may wait on the same order; the first to claim
// the delivered server has it, the other looks again (and orders again,
// once it sees no order of ours left in flight).

// transaction is an order as the transaction endpoints show it.
type transaction struct {
	ID            string  `json:"id"`
	Status        string  `json:"status"`
	ServerNumber  *int    `json:"server_number"`
	AuthorizedKey []akey  `json:"authorized_key"`
	Product       txnProd `json:"product"`
}

type akey struct {
	Key struct {
		Fingerprint string `json:"fingerprint"`
	} `json:"key"`
}

// txnProd is the ordered product: a string id for a standard product, a
// number for a market one, and its location or datacenter.
type txnProd struct {
	ID         any    `json:"id"`
	Location   any    `json:"location"`
	Datacenter string `json:"datacenter"`
}

type txnEnvelope struct {
	Transaction transaction `json:"transaction"`
}

// Robot's transaction statuses.
const (
	txnReady     = "ready"
	txnInProcess = "in process"
	txnCancelled = "cancelled"
)

// orderRoutes are the two kinds of order: standard products and the
// server market.
type orderRoutes struct{ list, one string }

var (
	standardOrders = orderRoutes{"/order/server/transaction", "/order/server/transaction/{id}"}
	marketOrders   = orderRoutes{"/order/server_market/transaction", "/order/server_market/transaction/{id}"}
)

func routesFor(offerID string) (orderRoutes, string) {
	if id, ok := strings.CutPrefix(offerID, marketPrefix); ok {
		return marketOrders, id
	}
	return standardOrders, offerID
}

// delivered is the server an order of ours delivers, ordering one when
// none is in flight and the account and the request allow it.
func (a *account) delivered(ctx context.Context, what string, list []server, req adapter.CreateRequest) (server, error) {
	if !a.allowOrder || req.MaxMonthlyPrice <= 0 {
		return server{}, a.nothingFree(what, req, "")
	}
	routes, product := routesFor(req.OfferID)
	t, found, err := a.inFlight(ctx, routes, product, req.Location, list)
	if err != nil {
		return server{}, err
	}
	if !found {
		if t, err = a.order(ctx, what, routes, product, req); err != nil {
			return server{}, err
		}
	}
	return a.await(ctx, what, routes, t)
}

// nothingFree says why no server can be claimed, and the ways out.
func (a *account) nothingFree(what string, req adapter.CreateRequest, why string) error {
	out := fmt.Sprintf("%s: the account has no free server of offer %s in %s (unnamed, ready and not cancelled)", what, req.OfferID, req.Location)
	if why != "" {
		out += ", and " + why
	}
	return adapter.Errorf(adapter.InvalidState, "%s; set machine_id to a server of the account, free one of that product in Robot "+
		"(rename it to nothing), or let the provider order one: allow_order = true on the account and max_monthly_price on the "+
		"resource at least the offer's monthly price (see compute_offers)", out).WithField(adapter.FieldOfferID)
}

// inFlight finds an order of ours for product in loc that is still in
// process, or delivered to a server nobody has claimed.
func (a *account) inFlight(ctx context.Context, routes orderRoutes, product, loc string, list []server) (transaction, bool, error) {
	var out []txnEnvelope
	err := a.c.Get(ctx, routes.list, &out)
	if isCode(err, "NOT_FOUND", "TRANSACTION_NOT_FOUND") {
		return transaction{}, false, nil
	}
	if err != nil {
		return transaction{}, false, failListing("look for an order of this offer in flight (the account's last 30 days of orders)", err)
	}
	for _, e := range out {
		t := e.Transaction
		if !a.ours(t, product, loc) {
			continue
		}
		switch {
		case t.Status == txnInProcess:
			return t, true, nil
		case t.Status == txnReady && t.ServerNumber != nil:
			// A server missing from the listing was delivered after it was
			// taken (an order whose answer was lost can be delivered by
			// the time the create looks again), so nobody listed it as
			// claimed: the claim that follows finds out.
			i := slices.IndexFunc(list, func(s server) bool { return s.Number == *t.ServerNumber })
			if i < 0 || list[i].Name == "" && !list[i].Cancelled {
				return t, true, nil
			}
		}
	}
	return transaction{}, false, nil
}

// ours: the product, the location and our key.
func (a *account) ours(t transaction, product, loc string) bool {
	if fmt.Sprint(t.Product.ID) != product && !sameNumber(t.Product.ID, product) {
		return false
	}
	if l := txnLocation(t.Product); l != "" && l != loc {
		return false
	}
	return slices.ContainsFunc(t.AuthorizedKey, func(k akey) bool { return k.Key.Fingerprint == a.sshKey })
}

// sameNumber compares a JSON number id (a market product's) with its text.
func sameNumber(id any, product string) bool {
	f, ok := id.(float64)
	return ok && strconv.FormatFloat(f, 'f', -1, 64) == product
}

func txnLocation(p txnProd) string {
	if p.Datacenter != "" {
		return locationOf(p.Datacenter)
	}
	if s, ok := p.Location.(string); ok {
		return strings.ToLower(s)
	}
	return ""
}

// order sends one order, after checking the price against the request's
// limit. A failure that may have been committed (no answer, a 5xx) is
// returned Transient: the caller's retry runs Create again, whose search of
// the transactions finds the order if Robot took it.
func (a *account) order(ctx context.Context, what string, routes orderRoutes, product string, req adapter.CreateRequest) (transaction, error) {
	if a.sshKey == "" {
		return transaction{}, adapter.Errorf(adapter.InvalidConfig,
			"%s: ordering needs the account's ssh_key (the fingerprint of a key in Robot's Key management), which Robot installs on the new server", what).WithField(settingSSHKey)
	}
	o, found, others, err := a.offer(ctx, req.OfferID, req.Location)
	if err != nil {
		return transaction{}, err
	}
	if !found {
		return transaction{}, unknownOffer(req.OfferID, req.Location, others)
	}
	if o.PricePerMonth <= 0 || o.PricePerMonth > req.MaxMonthlyPrice {
		return transaction{}, a.nothingFree(what, req, fmt.Sprintf("ordering one costs %.2f %s a month (setup %.2f), above max_monthly_price %.2f",
			o.PricePerMonth, o.Currency, o.SetupFee, req.MaxMonthlyPrice))
	}
	form := url.Values{"product_id": {product}, "authorized_key[]": {a.sshKey}}
	if routes == standardOrders {
		form.Set("location", strings.ToUpper(req.Location))
	}
	var out txnEnvelope
	// Whatever came of it, the order may have taken a market server off
	// the list.
	defer a.forgetOffers()
	if err := a.c.Post(ctx, routes.list, form, &out); err != nil {
		return transaction{}, fail(what+": order offer "+req.OfferID+" (if Robot took the order, applying again finds it among the account's orders and waits for it)", err)
	}
	return out.Transaction, nil
}

// await polls the order until Robot names its server, then returns that
// server. The poll is paced on the account's clock; the caller's context
// (the resource's create timeout) bounds it, and a create run again after
// it ran out finds the same order in flight.
func (a *account) await(ctx context.Context, what string, routes orderRoutes, t transaction) (server, error) {
	err := adapter.WaitFor(ctx, a.clock, a.poll, "delivery of order "+t.ID, func(ctx context.Context) (bool, error) {
		if t.Status == txnReady && t.ServerNumber != nil {
			return true, nil
		}
		if t.Status == txnCancelled {
			return false, adapter.Errorf(adapter.InvalidState, "%s: Robot cancelled order %s; see the order in Robot, then apply again (a new order is placed)", what, t.ID)
		}
		adapter.ReportState(ctx, "order "+t.Status)
		var out txnEnvelope
		if err := a.c.Get(ctx, routes.one, &out, t.ID); err != nil {
			return false, fail(what+": read order "+t.ID, err)
		}
		t = out.Transaction
		return t.Status == txnReady && t.ServerNumber != nil, nil
	})
	if err != nil {
		return server{}, err
	}
	s, err := a.getServer(ctx, *t.ServerNumber)
	if err != nil {
		return server{}, fail(what+": read server "+strconv.Itoa(*t.ServerNumber)+" that order "+t.ID+" delivered", err)
	}
	return s, nil
}
