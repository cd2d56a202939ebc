package toycloud

import (
	"cmp"
	"context"
	"maps"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/rest"
)

// The marks, labels under labelPrefix beside the user's. A helper shared
// by every label backend is meant to take these over.
const (
	labelPrefix      = "compute.seedcompute.io/"
	labelManaged     = labelPrefix + "managed"
	labelKey         = labelPrefix + "key"
	labelFingerprint = labelPrefix + "fingerprint"
	labelClaim       = labelPrefix + "claim"
	labelUnconfirmed = labelPrefix + "unconfirmed"
)

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

func newAccount(settings map[string]string, env adapter.Env) *account {
	return &account{api: newClient(settings[settingEndpoint], settings[settingKey], env), region: settings[settingRegion], clock: env.Clock}
}

func (a *account) Kind() string                       { return Kind }
func (a *account) Capabilities() adapter.Capabilities { return capabilities }

// states map the API's status words conservatively (rule 4): running only
// with an address; stopping is not yet off.
var states = map[string]adapter.State{
	"provisioning": adapter.StatePending, "starting": adapter.StatePending, "running": adapter.StateRunning,
	"stopping": adapter.StateRunning, "off": adapter.StateStopped, "deleting": adapter.StateDeleting,
}

func toMachine(s server) adapter.Machine {
	m := adapter.Machine{ID: strconv.Itoa(s.ID), Name: s.Name, RawState: s.Status, OfferID: s.Size, Image: s.Image,
		Location: s.Region, IPv4: s.IPv4, CreatedAt: s.Created, Labels: map[string]string{},
		Managed: s.Labels[labelManaged] == "true", Key: s.Labels[labelKey], Fingerprint: s.Labels[labelFingerprint],
		Claim: s.Labels[labelClaim], Unconfirmed: s.Labels[labelUnconfirmed] == "true"}
	for k, v := range s.Labels {
		if !strings.HasPrefix(k, labelPrefix) {
			m.Labels[k] = v
		}
	}
	m.State = states[s.Status]
	if m.State == "" {
		m.State = adapter.StateUnknown
	}
	if (s.Status == "running" || s.Status == "stopping") && !m.HasAddress() {
		m.State = adapter.StatePending
	}
	if m.Managed {
		m.Actions = adapter.ActionsFor(m.State, capabilities)
	}
	return m
}

func withMarks(user map[string]string, m adapter.Mark) map[string]string {
	out := maps.Clone(user)
	if out == nil {
		out = map[string]string{}
	}
	out[labelManaged], out[labelKey], out[labelFingerprint] = "true", m.Key, m.Fingerprint
	if m.Claim != "" {
		out[labelClaim] = m.Claim
	}
	if m.Unconfirmed {
		out[labelUnconfirmed] = "true"
	}
	return out
}

func (a *account) ListOffers(ctx context.Context, q adapter.Query) ([]adapter.Offer, error) {
	var body struct {
		Sizes []struct {
			Name      string   `json:"name"`
			VCPUs     int      `json:"vcpus"`
			MemoryMiB int      `json:"memory_mib"`
			Regions   []string `json:"regions"`
			Hourly    float64  `json:"price_hourly"`
		} `json:"sizes"`
	}
	if err := a.api.Get(ctx, "/sizes", &body); err != nil {
		return nil, classify(err)
	}
	// One region's offers, the query's or the account's: a size's id is
	// the same in every region.
	region, out := cmp.Or(q.Location, a.region), []adapter.Offer{}
	for _, s := range body.Sizes {
		o := adapter.Offer{ID: s.Name, Kind: adapter.KindVPS, Location: region, VCPU: s.VCPUs, MemoryGiB: float64(s.MemoryMiB) / 1024,
			PricePerHour: s.Hourly, Currency: "EUR", Available: true}
		if slices.Contains(s.Regions, region) && q.Match(o) {
			out = append(out, o)
		}
	}
	slices.SortFunc(out, func(x, y adapter.Offer) int { return cmp.Compare(x.PricePerHour, y.PricePerHour) })
	return out, nil
}

func (a *account) Check(ctx context.Context) error {
	return classify(a.api.Get(ctx, "/sizes", nil))
}

// find lists the servers whose label k is v, every page.
func (a *account) find(ctx context.Context, k, v string) ([]adapter.Machine, error) {
	var out []adapter.Machine
	for page := 1; page > 0; {
		var body struct {
			Servers  []server `json:"servers"`
			NextPage int      `json:"next_page"`
		}
		q := url.Values{"page": {strconv.Itoa(page)}, "label": {k + "=" + v}}
		if err := a.api.Do(ctx, rest.Call{Method: "GET", Route: "/servers", Query: q}, &body); err != nil {
			return nil, rest.ListingFailed(classify(err), apiName, DefaultEndpoint)
		}
		for _, s := range body.Servers {
			out = append(out, toMachine(s))
		}
		page = body.NextPage
	}
	return out, nil
}

func (a *account) List(ctx context.Context) ([]adapter.Machine, error) {
	return a.find(ctx, labelManaged, "true")
}

func (a *account) Create(ctx context.Context, call adapter.Call, req adapter.CreateRequest) (adapter.Machine, error) {
	if req.Location == "" {
		req.Location = a.region
	}
	fp := adapter.Fingerprint(req)
	what := "create server " + strconv.Quote(req.Name)
	return adapter.CreateFlow{What: what, Call: call, Fingerprint: fp, Clock: a.clock,
		Find: func(ctx context.Context) (adapter.Machine, bool, error) {
			found, err := a.find(ctx, labelKey, call.IdempotencyKey)
			if err != nil || len(found) == 0 {
				return adapter.Machine{}, false, err
			}
			return found[0], true, nil
		},
		Make: func(ctx context.Context) (adapter.Machine, error) {
			mark := adapter.Mark{Key: call.IdempotencyKey, Fingerprint: fp, Claim: call.Claim, Unconfirmed: true}
			body := map[string]any{"name": req.Name, "size": req.OfferID, "image": req.Image, "region": req.Location,
				"labels": withMarks(req.Labels, mark), "user_data": req.UserData}
			var out struct{ Server server }
			if err := a.api.Do(ctx, rest.Call{Method: "POST", Route: "/servers", JSON: body}, &out); err != nil {
				return adapter.Machine{}, classify(err)
			}
			return toMachine(out.Server), nil
		},
		Take: func(ctx context.Context, found adapter.Machine, own bool) (adapter.Machine, error) {
			if own {
				return found, nil
			}
			mark := adapter.Mark{Key: found.Key, Fingerprint: found.Fingerprint, Claim: call.Claim, Unconfirmed: true}
			return a.write(ctx, found.ID, map[string]any{"labels": withMarks(found.Labels, mark)})
		},
	}.Run(ctx)
}

// read is Get without its id check.
func (a *account) read(ctx context.Context, id string) (adapter.Machine, error) {
	var out struct{ Server server }
	if err := a.api.Get(ctx, "/servers/{id}", &out, id); err != nil {
		return adapter.Machine{}, classify(err)
	}
	return toMachine(out.Server), nil
}

func (a *account) write(ctx context.Context, id string, body map[string]any) (adapter.Machine, error) {
	var out struct{ Server server }
	if err := a.api.Do(ctx, rest.Call{Method: "PATCH", Route: "/servers/{id}", Args: []string{id}, JSON: body}, &out); err != nil {
		return adapter.Machine{}, classify(err)
	}
	return toMachine(out.Server), nil
}

// checkID refuses a malformed id before any request (rule 10).
func checkID(id string) error {
	if !Definition().Rules.MachineID.Allows(id) {
		return adapter.Errorf(adapter.InvalidInput, "machine id %q is not a Toy Cloud server id: it must be a positive number", id)
	}
	return nil
}

func (a *account) Get(ctx context.Context, id string) (adapter.Machine, error) {
	if err := checkID(id); err != nil {
		return adapter.Machine{}, err
	}
	return a.read(ctx, id)
}

// managed reads machine id and refuses it unless it carries the mark
// (rule 8), naming it.
func (a *account) managed(ctx context.Context, id, what string) (adapter.Machine, error) {
	m, err := a.Get(ctx, id)
	if err == nil && !m.Managed {
		err = adapter.Errorf(adapter.AccessDenied, "%s server %s (%q): it does not carry the provider's managed mark, so it is left alone; import it to manage it", what, id, m.Name)
	}
	return m, err
}

func (a *account) Delete(ctx context.Context, id string) error {
	if _, err := a.managed(ctx, id, "delete"); err != nil {
		return err
	}
	return classify(a.api.Do(ctx, rest.Call{Method: "DELETE", Route: "/servers/{id}", Args: []string{id}}, nil))
}

func (a *account) Power(ctx context.Context, id string, action adapter.PowerAction) error {
	word := map[adapter.PowerAction]string{adapter.PowerOn: "on", adapter.PowerOff: "off"}[action]
	if word == "" {
		return adapter.Errorf(adapter.Unsupported, "Toy Cloud servers only switch on and off, not %s", action.Verb())
	}
	if _, err := a.managed(ctx, id, action.Verb()); err != nil {
		return err
	}
	return classify(a.api.Do(ctx, rest.Call{Method: "POST", Route: "/servers/{id}/power", Args: []string{id}, JSON: map[string]string{"action": word}}, nil))
}

// Update writes name, labels and mark in one PATCH (rule 9): without a
// mark it refuses an unmarked machine; a mark without a claim keeps the
// machine's.
func (a *account) Update(ctx context.Context, id string, req adapter.UpdateRequest) (adapter.Machine, error) {
	var cur adapter.Machine
	var err error
	if req.Current != nil {
		cur = *req.Current
	} else if req.Mark != nil {
		cur, err = a.Get(ctx, id)
	} else {
		cur, err = a.managed(ctx, id, "update")
	}
	if err != nil {
		return adapter.Machine{}, err
	}
	if req.Mark == nil && !cur.Managed {
		return adapter.Machine{}, adapter.Errorf(adapter.AccessDenied, "update server %s (%q): it does not carry the provider's managed mark; import it to manage it", id, cur.Name)
	}
	mark := adapter.Mark{Key: cur.Key, Fingerprint: cur.Fingerprint, Claim: cur.Claim, Unconfirmed: cur.Unconfirmed}
	if req.Mark != nil {
		mark.Key, mark.Fingerprint, mark.Unconfirmed = req.Mark.Key, req.Mark.Fingerprint, req.Mark.Unconfirmed
		if req.Mark.Claim != "" {
			mark.Claim = req.Mark.Claim
		}
	}
	labels := cur.Labels
	if req.Labels != nil {
		labels = req.Labels
	}
	body := map[string]any{"labels": withMarks(labels, mark)}
	if req.Name != nil {
		body["name"] = *req.Name
	}
	return a.write(ctx, id, body)
}

var (
	_ adapter.Powerer = (*account)(nil)
	_ adapter.Updater = (*account)(nil)
	_ adapter.Lister  = (*account)(nil)
	_ adapter.Checker = (*account)(nil)
)
