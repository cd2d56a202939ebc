package robot

import (
	"cmp"
	"context"
	"encoding/json"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// hoursPerMonth spreads a monthly price over the hours of an average month,
// so Robot's offers compare with hourly ones (730 = 8760 / 12).
const hoursPerMonth = 730

// marketPrefix marks the id of a server market (auction) offer: Robot's
// market ids are numbers, standard product ids words such as "AX42".
const marketPrefix = "market-"

// amount is a price as Robot writes it: a decimal string ("39.0000"), or
// a number. ParseFloat also reads "NaN", "Inf" and negative numbers, which
// are no price: such an answer is not the documented JSON (and a NaN would
// panic where Terraform converts the offer to its number type).
type amount float64

func (a *amount) UnmarshalJSON(b []byte) error {
	s := strings.Trim(string(b), `"`)
	if s == "" || s == "null" {
		*a = 0
		return nil
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || f < 0 {
		return &json.UnsupportedValueError{Str: "price"}
	}
	*a = amount(f)
	return nil
}

type price struct {
	Net   amount `json:"net"`
	Gross amount `json:"gross"`
}

// product is a standard product of GET /order/server/product.
type product struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description []string `json:"description"`
	Location    []string `json:"location"`
	Prices      []struct {
		Location   string `json:"location"`
		Price      price  `json:"price"`
		PriceSetup price  `json:"price_setup"`
	} `json:"prices"`
}

// marketProduct is a server market offer of GET /order/server_market/product.
type marketProduct struct {
	ID            int      `json:"id"`
	Name          string   `json:"name"`
	Description   []string `json:"description"`
	CPU           string   `json:"cpu"`
	MemorySize    float64  `json:"memory_size"`
	HDDSize       int      `json:"hdd_size"`
	HDDCount      int      `json:"hdd_count"`
	Datacenter    string   `json:"datacenter"`
	Price         amount   `json:"price"`
	PriceVAT      amount   `json:"price_vat"`
	PriceSetup    amount   `json:"price_setup"`
	PriceSetupVAT amount   `json:"price_setup_vat"`
}

// ListOffers lists the standard products and the server market in the
// query's location (the account's when empty). Robot has no GPU servers in
// either listing's data, so a GPU filter, or a location Robot lacks, is
// an impossible query: [].
func (a *account) ListOffers(ctx context.Context, q adapter.Query) ([]adapter.Offer, error) {
	loc := q.Location
	if loc == "" {
		loc = a.location
	}
	if q.MinGPUs > 0 || q.GPUModel != "" || !slices.Contains(locations, loc) || (q.Kind != "" && q.Kind != adapter.KindMetal) {
		return []adapter.Offer{}, nil
	}
	all, err := a.offers(ctx)
	if err != nil {
		return nil, err
	}
	out := []adapter.Offer{}
	for _, o := range all {
		if o.Location == loc && q.Match(o) {
			out = append(out, o)
		}
	}
	// Cheapest first, as every adapter lists; the id breaks ties so the
	// order is stable.
	slices.SortStableFunc(out, func(x, y adapter.Offer) int {
		return cmp.Or(cmp.Compare(x.PricePerHour, y.PricePerHour), strings.Compare(x.ID, y.ID))
	})
	return out, nil
}

// loadOffers reads both listings, in every location.
func (a *account) loadOffers(ctx context.Context) ([]adapter.Offer, error) {
	var std []struct {
		Product product `json:"product"`
	}
	if err := a.c.Get(ctx, "/order/server/product", &std); err != nil && !isCode(err, "NOT_FOUND", "PRODUCT_NOT_FOUND") {
		return nil, failListing("list Robot's standard server products", err)
	}
	var market []struct {
		Product marketProduct `json:"product"`
	}
	if err := a.c.Get(ctx, "/order/server_market/product", &market); err != nil && !isCode(err, "NOT_FOUND", "PRODUCT_NOT_FOUND") {
		return nil, failListing("list Robot's server market", err)
	}
	var out []adapter.Offer
	for _, p := range std {
		out = append(out, standardOffers(p.Product)...)
	}
	for _, p := range market {
		out = append(out, marketOffer(p.Product))
	}
	return out, nil
}

// isCode reports whether err is the webservice's refusal with one of codes:
// an empty listing is answered with NOT_FOUND. Only a 4xx answer is the
// webservice's own word; a 5xx that carries such a code (a proxy, a failing
// backend) says nothing of what exists, and reading it as "none" would, for
// example, send a paid order again because no transaction was found.
func isCode(err error, codes ...string) bool {
	e, ok := err.(*apiError)
	return ok && e.Status >= 400 && e.Status < 500 && slices.Contains(codes, e.Code)
}

// standardOffers is one offer per location the product has a price in.
func standardOffers(p product) []adapter.Offer {
	var out []adapter.Offer
	for _, pr := range p.Prices {
		monthly := float64(pr.Price.Gross)
		out = append(out, adapter.Offer{
			ID: p.ID, Kind: adapter.KindMetal, Location: strings.ToLower(pr.Location),
			Description: describeProduct(p.Name, p.Description),
			VCPU:        threads(p.Description), MemoryGiB: memory(p.Description),
			PricePerMonth: monthly, SetupFee: float64(pr.PriceSetup.Gross), PricePerHour: monthly / hoursPerMonth,
			Currency: "EUR", Available: true,
		})
	}
	return out
}

func marketOffer(p marketProduct) adapter.Offer {
	monthly := float64(p.PriceVAT)
	if monthly == 0 {
		monthly = float64(p.Price)
	}
	setup := float64(p.PriceSetupVAT)
	if setup == 0 {
		setup = float64(p.PriceSetup)
	}
	return adapter.Offer{
		ID: marketPrefix + strconv.Itoa(p.ID), Kind: adapter.KindMetal, Location: locationOf(p.Datacenter),
		Description: describeProduct(p.Name, append([]string{p.CPU}, p.Description...)),
		VCPU:        threads(append([]string{p.CPU}, p.Description...)), MemoryGiB: max(p.MemorySize, 0), DiskGiB: diskOf(p.HDDSize, p.HDDCount),
		PricePerMonth: monthly, SetupFee: setup, PricePerHour: monthly / hoursPerMonth,
		Currency: "EUR", Available: true,
	}
}

// diskOf is a market server's disk space: its drives' size times their
// count (at least one), 0 for sizes that are none or would overflow.
func diskOf(size, count int) int {
	count = max(count, 1)
	if size <= 0 || size > math.MaxInt/count {
		return 0
	}
	return size * count
}

func describeProduct(name string, lines []string) string {
	parts := slices.DeleteFunc(append([]string{name}, lines...), func(s string) bool { return strings.TrimSpace(s) == "" })
	return strings.Join(parts, ", ")
}

var (
	coresLine  = regexp.MustCompile(`(?i)\b(\d+)[- ]?(?:core|cores)\b`)
	memoryLine = regexp.MustCompile(`(?i)\b(\d+)\s*GB\b.*\b(?:RAM|DDR\d?)\b`)
)

// cores and memory read what Robot writes only as prose in a product's
// description ("Intel Core i5-13500 14-Core", "64 GB DDR4 RAM"); 0 when it
// does not say, which a min_vcpu or min_memory_gib filter then leaves out.
func cores(lines []string) int {
	for _, l := range lines {
		if m := coresLine.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			return n
		}
	}
	return 0
}

func memory(lines []string) float64 {
	for _, l := range lines {
		if m := memoryLine.FindStringSubmatch(l); m != nil {
			n, _ := strconv.Atoi(m[1])
			return float64(n)
		}
	}
	return 0
}

// offer finds one offer by id in loc; when there is none, it returns the
// ids offered there instead, for the message.
func (a *account) offer(ctx context.Context, id, loc string) (o adapter.Offer, found bool, others []string, err error) {
	all, err := a.offers(ctx)
	if err != nil {
		return adapter.Offer{}, false, nil, err
	}
	for _, o := range all {
		if o.Location != loc {
			continue
		}
		if o.ID == id {
			return o, true, nil, nil
		}
		others = append(others, o.ID)
	}
	slices.Sort(others)
	return adapter.Offer{}, false, slices.Compact(others), nil
}

// unknownOffer is the error for an offer id Robot does not offer in loc.
func unknownOffer(id, loc string, others []string) error {
	list := "nothing"
	if len(others) > 0 {
		list = strings.Join(others, ", ")
	}
	return adapter.Errorf(adapter.InvalidInput, "offer %s is not offered in %s; offered there: %s (see the compute_offers data source)",
		adapter.Quoted(adapter.Redacted(id)), loc, list).WithField(adapter.FieldOfferID)
}

// Validate checks a create request against Robot before anything is
// claimed: no user data, the location, the server named by machine_id, the
// offer.
func (a *account) Validate(ctx context.Context, req adapter.CreateRequest) error {
	if req.UserData != "" {
		return errUserData()
	}
	loc := req.Location
	if loc == "" {
		loc = a.location
	}
	if !slices.Contains(locations, loc) {
		return adapter.Errorf(adapter.InvalidInput, "location %s is not a Robot location; use fsn1, nbg1 or hel1", adapter.Quoted(adapter.Redacted(loc))).WithField(adapter.FieldLocation)
	}
	if req.MachineID != "" {
		n, err := parseID(req.MachineID)
		if err != nil {
			return adapter.WithFieldOf(err, fieldMachineID)
		}
		if _, err := a.getServer(ctx, n); err != nil {
			out := fail("check machine_id "+req.MachineID, err)
			if adapter.IsNotFound(out) {
				return adapter.Errorf(adapter.InvalidInput, "machine_id %s: the account has no server with that number; use a server number from Robot's server list (or the compute_machines data source)", req.MachineID).WithField(fieldMachineID)
			}
			return out
		}
		return nil
	}
	if req.OfferID == "" {
		return adapter.Errorf(adapter.InvalidInput, "set offer_id (a product such as AX42, see compute_offers) or machine_id (a server number)").WithField(adapter.FieldOfferID)
	}
	_, found, others, err := a.offer(ctx, req.OfferID, loc)
	if err != nil || found {
		return err
	}
	// A product Robot no longer sells can still be claimed from the
	// account's own servers.
	list, err := a.servers(ctx)
	if err != nil {
		return failListing("list the account's servers", err)
	}
	for _, s := range list {
		if s.Product == req.OfferID && locationOf(s.DC) == loc {
			return nil
		}
	}
	return unknownOffer(req.OfferID, loc, others)
}

// fieldMachineID is the attribute that names a server to claim.
const fieldMachineID = "machine_id"
