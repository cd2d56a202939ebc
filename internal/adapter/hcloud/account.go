package hcloud

import (
	"context"
	"maps"
	"net/http"
	"strings"
	"time"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// options are the knobs tests turn; Definition uses defaultOptions.
type options struct {
	// poll paces waits for actions, on the account's Clock.
	poll adapter.Backoff
	// requestTimeout bounds every single HTTP request, its whole answer
	// included; adapter.Env.RequestTimeout, when set, replaces it.
	requestTimeout time.Duration
	// transport carries the requests; nil is http.DefaultTransport.
	transport http.RoundTripper
}

func defaultOptions() options {
	return options{
		poll:           adapter.Backoff{Initial: 500 * time.Millisecond, Max: 5 * time.Second},
		requestTimeout: DefaultRequestTimeout,
	}
}

// DefaultRequestTimeout bounds one request to the API. The API answers
// reads in well under a second and accepts a server create in a few
// seconds, so 5s leaves a wide margin, and a request cut short is sent once
// more. It is short because a silent endpoint costs each operation two
// bounds and a plan a few operations in a row (the account's health check,
// then the instances' listing): about 20s, where a one-minute bound retried
// by hcloud-go cost a plan four minutes.
const DefaultRequestTimeout = 5 * time.Second

// account is one Hetzner Cloud project, reached with one token reference.
type account struct {
	client   *hcloud.Client
	location string // the account's default location
	endpoint string
	clock    adapter.Clock
	poll     adapter.Backoff

	// The catalog and images are loaded once per account, i.e. once per
	// terraform run, and only when offers or validation need them.
	catalog lazy[*catalog]
	images  lazy[[]*hcloud.Image]
	// locations is read once per account and serves the health check,
	// the catalog and the proof that the endpoint is the API: a plan and
	// an apply each asked for it up to three times, for the same answer.
	locations lazy[[]*hcloud.Location]
	// starts follows the start actions creates queue (see starts.go).
	starts starts
	budget *rateBudget
	// rescueKeys are the names or ids of the project SSH keys a rescue
	// system accepts (settingRescueKeys); empty refuses rescue.
	rescueKeys []string
	// def and settings are what the account was built from, so a write
	// asks Lacks what the plan asked.
	def      adapter.Definition
	settings map[string]string
}

var (
	_ adapter.Adapter    = (*account)(nil)
	_ adapter.Powerer    = (*account)(nil)
	_ adapter.Updater    = (*account)(nil)
	_ adapter.Lister     = (*account)(nil)
	_ adapter.Checker    = (*account)(nil)
	_ adapter.Validator  = (*account)(nil)
	_ adapter.RateBudget = (*account)(nil)
)

// settingEndpoint is the account setting the API's base URL is in, the
// Definition's RoleEndpoint setting, on which diagnostics of a wrong
// endpoint are put.
const settingEndpoint = "endpoint"

// newAccount builds the adapter without calling the API. The token stays a
// reference: the transport resolves it on every request.
func newAccount(settings map[string]string, env adapter.Env, opts options) (*account, error) {
	ref := settings["token"]
	if _, _, err := adapter.ParseRef(ref); err != nil {
		return nil, adapter.Errorf(adapter.InvalidConfig, "token: %s", adapter.MessageOf(err)).WithField("token")
	}
	endpoint := settings[settingEndpoint]
	if endpoint == "" {
		endpoint = hcloud.Endpoint
	}
	if err := checkEndpoint(endpoint); err != nil {
		return nil, adapter.Errorf(adapter.InvalidConfig, "endpoint: %s", adapter.MessageOf(err)).WithField(settingEndpoint)
	}
	location := settings["location"]
	if location == "" {
		location = DefaultLocation
	}
	secrets := env.Secrets
	if secrets == nil {
		secrets = adapter.SecretResolver{}
	}
	clock := env.Clock
	if clock == nil {
		clock = adapter.RealClock{}
	}
	base := opts.transport
	if base == nil {
		base = http.DefaultTransport
	}
	timeout := opts.requestTimeout
	if env.RequestTimeout > 0 {
		timeout = env.RequestTimeout
	}
	if timeout <= 0 {
		timeout = DefaultRequestTimeout
	}
	budget := &rateBudget{}
	httpClient := &http.Client{
		Transport: logAttempts(&authTransport{base: newRequestLog(base, env.Log, endpoint), secrets: secrets, ref: ref, timeout: timeout,
			endpoint: adapter.Redacted(endpoint), prefix: basePath(endpoint), budget: budget}),
		CheckRedirect: refuseRedirect(endpoint),
	}
	clientOpts := []hcloud.ClientOption{
		hcloud.WithEndpoint(endpoint),
		hcloud.WithHTTPClient(httpClient),
		// hcloud-go's own retry is off: it waits on the wall clock, inside
		// the contract's retry on the injected clock (adapter.Retry), so a
		// 502 or a rate limit cost up to four requests per attempt and waits
		// that neither the tests' clock nor the operation's backoff knew of.
		// The contract's policy is the one retry: one request per attempt.
		hcloud.WithRetryOpts(hcloud.RetryOpts{MaxRetries: 0}),
	}
	if name, version, ok := userAgent(env.UserAgent); ok {
		clientOpts = append(clientOpts, hcloud.WithApplication(name, version))
	}
	return &account{
		client:     hcloud.NewClient(clientOpts...),
		location:   location,
		endpoint:   endpoint,
		clock:      clock,
		poll:       opts.poll,
		budget:     budget,
		rescueKeys: splitKeys(settings[settingRescueKeys]),
		def:        definition(opts),
		settings:   maps.Clone(settings),
	}, nil
}

// RateBudget is what the API's last answer said is left of its budget, so
// shared waits slow down before they run into the rate limit.
func (a *account) RateBudget() (remaining, limit int, ok bool) { return a.budget.get() }

// userAgent splits "name/version" for hcloud-go, which appends its own part.
func userAgent(ua string) (name, version string, ok bool) {
	ua = strings.TrimSpace(ua)
	if ua == "" {
		return "", "", false
	}
	name, version, _ = strings.Cut(ua, "/")
	return name, version, true
}

// Kind names the adapter.
func (a *account) Kind() string { return Kind }

// confirmAPI proves, once per account, that the endpoint is the API, with
// the listing of its locations (shared with the health check and the
// catalog, so an account already checked sends nothing). Before that, a
// server's not_found could come from a base URL where every path is not
// found, and would read as absence.
func (a *account) confirmAPI(ctx context.Context) error {
	_, err := a.loadLocations(ctx, "confirm that "+adapter.Redacted(a.endpoint)+" is the Hetzner Cloud API")
	return err
}

// loadLocations lists the project's locations once per account and shares
// the listing between concurrent callers; a failed listing is not kept, so
// a retry asks again. what names the caller's purpose in its error.
func (a *account) loadLocations(ctx context.Context, what string) ([]*hcloud.Location, error) {
	locs, err := a.locations.get(ctx, func(ctx context.Context) ([]*hcloud.Location, error) {
		return a.client.Location.AllWithOpts(ctx, hcloud.LocationListOpts{ListOpts: hcloud.ListOpts{PerPage: pageSize}})
	})
	if err != nil {
		return nil, failListing(what, err)
	}
	return locs, nil
}
