package toycloud

import (
	"cmp"
	"context"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/marks"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/rest"
)

// The marks are labels in the one spelling of backends with labels.
var labelMarks = marks.Default()

// server is a server as the API sends it.
type server struct {
	ID      int               `json:"id"`
	Name    string            `json:"name"`
	Size    string            `json:"size"`
	Image   string            `json:"image"`
	Region  string            `json:"region"`
	Status  string            `json:"status"`
	IPv4    string            `json:"ipv4"`
	Labels  map[string]string `json:"labels"`
	Created time.Time         `json:"created"`
}

// account is one Toy Cloud account.
type account struct {
	api    *rest.Client
	region string
	clock  adapter.Clock
}

func (a *account) Kind() string { return Kind }

// states map the API's status words conservatively (rule 4, conservative
// states, of internal/adapter's package documentation): stopping is not
// yet off, and nothing runs without an address.
var states = map[string]adapter.State{"provisioning": adapter.StatePending, "starting": adapter.StatePending,
	"running": adapter.StateRunning, "stopping": adapter.StateRunning, "off": adapter.StateStopped, "deleting": adapter.StateDeleting}

func toMachine(s server) adapter.Machine {
	managed, mark, user := labelMarks.Read(s.Labels)
	m := adapter.Machine{ID: strconv.Itoa(s.ID), Name: s.Name, State: cmp.Or(states[s.Status], adapter.StateUnknown), RawState: s.Status,
		OfferID: s.Size, Image: s.Image, Location: s.Region, IPv4: s.IPv4, CreatedAt: s.Created, Labels: user}
	m.SetMark(managed, mark)
	m.Conclude(capabilities)
	return m
}

// ListOffers lists one region's sizes, the query's or the account's.
func (a *account) ListOffers(ctx context.Context, q adapter.Query) ([]adapter.Offer, error) {
	var body struct {
		Sizes []struct {
			Name      string   `json:"name"`
			VCPUs     int      `json:"vcpus"`
			MemoryMiB int      `json:"memory_mib"`
			Regions   []string `json:"regions"`
			Hourly    float64  `json:"hourly"`
		} `json:"sizes"`
	}
	if err := a.api.Get(ctx, "/sizes", &body); err != nil {
		return nil, codes.Listing(err)
	}
	region, out := cmp.Or(q.Location, a.region), []adapter.Offer{}
	for _, s := range body.Sizes {
		o := adapter.Offer{ID: s.Name, Kind: adapter.KindVPS, Location: region, VCPU: s.VCPUs, MemoryGiB: float64(s.MemoryMiB) / 1024,
			PricePerHour: s.Hourly, Currency: "EUR", Available: true}
		// A negative number is neither a size nor a price, so such a size
		// is no offer.
		if slices.Contains(s.Regions, region) && q.Match(o) && min(s.Hourly, float64(s.VCPUs), float64(s.MemoryMiB)) >= 0 {
			out = append(out, o)
		}
	}
	slices.SortFunc(out, func(x, y adapter.Offer) int { return cmp.Compare(x.PricePerHour, y.PricePerHour) })
	return out, nil
}

// Check reads the sizes; like any listing, a not_found from it proves no
// absence.
func (a *account) Check(ctx context.Context) error {
	return codes.Listing(a.api.Get(ctx, "/sizes", nil))
}

// find lists every page of the servers that selector selects.
func (a *account) find(ctx context.Context, selector string) ([]adapter.Machine, error) {
	var out []adapter.Machine
	for page := 1; page > 0; {
		var body struct {
			Servers  []server `json:"servers"`
			NextPage int      `json:"next_page"`
		}
		q := url.Values{"page": {strconv.Itoa(page)}, "label": {selector}}
		if err := a.api.Do(ctx, rest.Call{Method: "GET", Route: "/servers", Query: q}, &body); err != nil {
			return nil, codes.Listing(err)
		}
		for _, s := range body.Servers {
			out = append(out, toMachine(s))
		}
		page = body.NextPage
	}
	return out, nil
}

func (a *account) List(ctx context.Context) ([]adapter.Machine, error) {
	return a.find(ctx, labelMarks.Selector())
}

// Create is the contract's create algorithm (rules 1 and 2, idempotent
// create and adoption) over this API's labels (marks.Create).
func (a *account) Create(ctx context.Context, call adapter.Call, req adapter.CreateRequest) (adapter.Machine, error) {
	req.Location = cmp.Or(req.Location, a.region)
	return labelMarks.Create(ctx, marks.Create{Call: call, Request: req, Clock: a.clock, Noun: "server", Find: a.find, Relabel: a.relabel,
		Make: func(ctx context.Context, labels map[string]string) (adapter.Machine, error) {
			return a.send(ctx, "POST", "/servers", map[string]any{"name": req.Name, "size": req.OfferID, "image": req.Image,
				"region": req.Location, "labels": labels, "user_data": req.UserData})
		}})
}

// relabel replaces a server's labels.
func (a *account) relabel(ctx context.Context, id string, labels map[string]string) (adapter.Machine, error) {
	return a.send(ctx, "PATCH", "/servers/{id}", map[string]any{"labels": labels}, id)
}

// send sends body (none when nil) and reads the server the API answers
// with.
func (a *account) send(ctx context.Context, method, route string, body any, args ...string) (adapter.Machine, error) {
	var out struct {
		Server server `json:"server"`
	}
	if err := a.api.Do(ctx, rest.Call{Method: method, Route: route, Args: args, JSON: body}, &out); err != nil {
		return adapter.Machine{}, classify(err)
	}
	return toMachine(out.Server), nil
}

// Get refuses a malformed id before any request (rule 10, ids).
func (a *account) Get(ctx context.Context, id string) (adapter.Machine, error) {
	if err := rules.MachineID.RefuseID(id, "a Toy Cloud server id"); err != nil {
		return adapter.Machine{}, err
	}
	return a.send(ctx, "GET", "/servers/{id}", nil, id)
}

func (a *account) Delete(ctx context.Context, id string) error {
	if _, err := labelMarks.Managed(ctx, a.Get, id, "delete", "server", false); err != nil {
		return err
	}
	return classify(a.api.Do(ctx, rest.Call{Method: "DELETE", Route: "/servers/{id}", Args: []string{id}}, nil))
}

// Power switches on and off, the only actions the capabilities offer.
func (a *account) Power(ctx context.Context, id string, action adapter.PowerAction) error {
	if _, err := labelMarks.Managed(ctx, a.Get, id, action.Verb(), "server", false); err != nil {
		return err
	}
	word := map[adapter.PowerAction]string{adapter.PowerOn: "on", adapter.PowerOff: "off"}[action]
	return classify(a.api.Do(ctx, rest.Call{Method: "POST", Route: "/servers/{id}/power", Args: []string{id}, JSON: map[string]string{"action": word}}, nil))
}

// Update writes name, labels and mark in one PATCH (rule 9, updates and the
// mark). It refuses a malformed id itself (rule 10, ids): with a managed
// req.Current, labelMarks.Update reads nothing, so Get's refusal is not
// reached.
func (a *account) Update(ctx context.Context, id string, req adapter.UpdateRequest) (adapter.Machine, error) {
	if err := rules.MachineID.RefuseID(id, "a Toy Cloud server id"); err != nil {
		return adapter.Machine{}, err
	}
	labels, err := labelMarks.Update(ctx, a.Get, id, "server", req)
	if err != nil {
		return adapter.Machine{}, err
	}
	body := map[string]any{"labels": labels}
	if req.Name != nil {
		body["name"] = *req.Name
	}
	return a.send(ctx, "PATCH", "/servers/{id}", body, id)
}
