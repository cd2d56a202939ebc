package robot

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// options are the knobs tests turn; Definition uses defaultOptions.
type options struct {
	// poll paces the wait for an order's delivery, on the account's Clock.
	poll adapter.Backoff
	// requestTimeout bounds every single request; adapter.Env.RequestTimeout,
	// when set, replaces it.
	requestTimeout time.Duration
	// transport carries the requests; nil is http.DefaultTransport.
	transport http.RoundTripper
}

func defaultOptions() options {
	return options{
		// Robot delivers an ordered server in minutes to days; polling
		// every minute at most keeps a long wait within the rate limits
		// (order transactions allow 500 requests an hour).
		poll:           adapter.Backoff{Initial: 10 * time.Second, Max: time.Minute},
		requestTimeout: DefaultRequestTimeout,
	}
}

// account is one Robot account: the adapter the registry opens.
type account struct {
	c               *client
	clock           adapter.Clock
	poll            adapter.Backoff
	scope           string
	location        string
	sshKey          string
	sshPort         int
	allowOrder      bool
	cancelOnDestroy bool
	settings        map[string]string
	// def is the adapter's definition, whose refusals (Lacks) the account
	// words as the plan does.
	def adapter.Definition
	// catalog caches the offers for catalogTTL (catalog.go).
	catalog catalog
	// claims keeps this process's creates off each other's servers.
	claims claims
}

func newAccount(settings map[string]string, env adapter.Env, opts options) *account {
	if env.Clock == nil {
		env.Clock = adapter.RealClock{}
	}
	if env.Secrets == nil {
		env.Secrets = adapter.SecretResolver{}
	}
	port, _ := strconv.Atoi(settings[settingSSHPort])
	def := definition(opts)
	return &account{
		c:               newClient(settings[settingEndpoint], env, settings[settingUser], settings[settingPassword], opts.requestTimeout, opts.transport),
		clock:           env.Clock,
		poll:            opts.poll,
		scope:           def.Scope(settings),
		location:        settings[settingLocation],
		sshKey:          settings[settingSSHKey],
		sshPort:         port,
		allowOrder:      settings[settingAllowOrder] == "true",
		cancelOnDestroy: settings[settingCancelOnDestroy] == "true",
		settings:        settings,
		def:             def,
	}
}

// Kind names the adapter.
func (a *account) Kind() string { return Kind }

// server is a Robot server as GET /server and GET /server/{n} show it.
type server struct {
	IP        string   `json:"server_ip"`
	IPv6Net   string   `json:"server_ipv6_net"`
	Number    int      `json:"server_number"`
	Name      string   `json:"server_name"`
	Product   string   `json:"product"`
	DC        string   `json:"dc"`
	Status    string   `json:"status"`
	Cancelled bool     `json:"cancelled"`
	PaidUntil string   `json:"paid_until"`
	Extra     []string `json:"ip"`
	Wol       bool     `json:"wol"`
}

type serverEnvelope struct {
	Server server `json:"server"`
}

// Robot's server statuses.
const (
	statusReady     = "ready"
	statusInProcess = "in process"
	// rawCancelled is the raw state of a cancelled server.
	rawCancelled = "cancelled"
)

// getServer reads one server.
func (a *account) getServer(ctx context.Context, n int) (server, error) {
	var out serverEnvelope
	if err := a.c.Get(ctx, "/server/{n}", &out, strconv.Itoa(n)); err != nil {
		if e, ok := err.(*apiError); ok && e.Code != "SERVER_NOT_FOUND" && codeOf(e) == adapter.NotFound {
			// Another thing's absence (an IP, a cancellation) in the
			// answer about a server is not the server's.
			return server{}, &adapter.Error{Code: adapter.Transient, Err: e,
				Message: e.Error() + "; only SERVER_NOT_FOUND proves that a server is gone"}
		}
		return server{}, err
	}
	return out.Server, nil
}

// servers lists every server of the account. Robot answers an account
// without servers with SERVER_NOT_FOUND, which for the listing means none.
func (a *account) servers(ctx context.Context) ([]server, error) {
	var out []serverEnvelope
	err := a.c.Get(ctx, "/server", &out)
	if err != nil {
		if isCode(err, "SERVER_NOT_FOUND") {
			return nil, nil
		}
		return nil, err
	}
	list := make([]server, len(out))
	for i, s := range out {
		list[i] = s.Server
	}
	return list, nil
}

// toMachine maps a server onto the contract. Robot cannot see whether a
// server is powered, so a ready server is running (with its address) and
// never stopped; one still being provisioned is pending; a cancelled one is
// deleting until Robot drops it, which is its only way of being gone.
func (a *account) toMachine(s server) adapter.Machine {
	c := parseName(s.Name)
	m := adapter.Machine{
		ID:       strconv.Itoa(s.Number),
		Name:     c.Name,
		RawState: s.Status,
		OfferID:  s.Product,
		Location: locationOf(s.DC),
		IPv4:     s.IP,
		IPv6:     firstHost(s.IPv6Net),
		Labels:   map[string]string{},
		Actions:  []adapter.PowerAction{},
	}
	if c.Managed {
		m.Managed, m.Claim, m.Fingerprint, m.Unconfirmed = true, c.Claim, c.Fingerprint, c.Unconfirmed
		m.Key = adapter.IdempotencyKey(a.scope, c.Name)
	}
	switch {
	case s.Cancelled:
		// Robot leaves the status "ready" beside cancelled: true; the
		// cancellation is what the server's state is about.
		m.State = adapter.StateDeleting
		m.RawState = rawCancelled
	case s.Status == statusReady && m.HasAddress():
		m.State = adapter.StateRunning
		// Every action, on and off included: Robot cannot tell a powered
		// server from one that is off, so it offers both ways. Only ours:
		// Power refuses a server without the mark.
		if m.Managed {
			m.Actions = []adapter.PowerAction{adapter.PowerOn, adapter.PowerOff, adapter.PowerReboot, adapter.PowerReset}
		}
	case s.Status == statusReady, s.Status == statusInProcess:
		m.State = adapter.StatePending
	default:
		m.State = adapter.StateUnknown
	}
	return m
}

// locationOf reads a datacenter ("FSN1-DC14") as the location users write.
func locationOf(dc string) string {
	loc, _, _ := strings.Cut(dc, "-")
	return strings.ToLower(loc)
}

// firstHost is the ::1 address of the server's IPv6 net ("2a01:4f8:1:2::"
// → "2a01:4f8:1:2::1"), where Robot's installimage puts the main address.
func firstHost(network string) string {
	if network == "" {
		return ""
	}
	network, _, _ = strings.Cut(network, "/")
	if strings.HasSuffix(network, "::") {
		return network + "1"
	}
	return network
}

// describe names a server for messages.
func describe(s server) string {
	return "server " + strconv.Itoa(s.Number) + " (" + strconv.Quote(s.Name) + ")"
}

// Get reads one server. SERVER_NOT_FOUND is absence; nothing else is.
func (a *account) Get(ctx context.Context, id string) (adapter.Machine, error) {
	n, err := parseID(id)
	if err != nil {
		return adapter.Machine{}, err
	}
	s, err := a.getServer(ctx, n)
	if err != nil {
		return adapter.Machine{}, fail("read server "+id, err)
	}
	return a.toMachine(s), nil
}

// Inventory lists every server of the account, managed or not.
func (a *account) Inventory(ctx context.Context) ([]adapter.Machine, error) {
	list, err := a.servers(ctx)
	if err != nil {
		return nil, failListing("list the account's servers", err)
	}
	out := make([]adapter.Machine, 0, len(list))
	for _, s := range list {
		out = append(out, a.toMachine(s))
	}
	return out, nil
}

// List lists the managed servers: those whose name carries the mark.
func (a *account) List(ctx context.Context) ([]adapter.Machine, error) {
	all, err := a.Inventory(ctx)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(all, func(m adapter.Machine) bool { return !m.Managed }), nil
}

// failListing is fail for a listing, where a NotFound cannot be absence of
// anything: it means the endpoint is not the webservice (adapter.ListingFailed).
func failListing(what string, err error) error {
	return adapter.ListingFailed(fail(what, err), settingEndpoint, "the Robot webservice", DefaultEndpoint)
}
