// Package hcloud is a stateful, in-memory emulator of the Hetzner Cloud API
// (servers, their actions, the catalog and SSH keys) that answers in the
// real API's JSON shapes, so the unmodified hcloud-go client works against
// it. It is an http.Handler wrapped in the faults middleware, with a Go API
// for tests to seed servers and simulate changes made outside Terraform.
//
// It imports only the standard library and the emulators' shared packages
// (internal/emulator/faults, hooks and secrettap); it never imports the
// provider's adapters, which talk to it over HTTP.
package hcloud

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
)

// BasePath is where the API lives below the emulator's root; the client's
// endpoint is the server URL plus BasePath.
const BasePath = "/v1"

// Options configure an Emulator.
type Options struct {
	// Token is the bearer token the API accepts; empty accepts any request.
	Token string
	// ReadOnlyToken, when set, is a second token that may only read: every
	// request with it other than GET is refused with 403 forbidden, as the
	// real API refuses a read-only token's writes.
	ReadOnlyToken string
	// Latency delays every API request; a request whose client gives up
	// meanwhile is never served (the faults' delay_if_connected).
	Latency time.Duration
	// ActionPolls is how many polls finish an action. A poll is any GET
	// that shows the action (by id, or in an action list) or the server it
	// acts on (by id, or in a server list). 0 means 1: the first poll sees
	// success. A negative value finishes actions before the call that
	// starts them answers.
	ActionPolls int
	// ActionDuration, when positive, finishes actions after this much wall
	// time instead of after ActionPolls reads. SetActionPace, and POST
	// /_emulator/actions, change both on a running emulator.
	ActionDuration time.Duration
	// OffBeforeStart shows what the real API may show between the two
	// actions of a create that starts its server: create_server leaves the
	// server off, and start_server, the create's next action, runs only from
	// then on (ActionPolls further polls, or ActionDuration). Reads in that
	// window see status off while start_server is still running. Without it
	// the server goes from initializing straight to starting.
	OffBeforeStart bool
	// BootReads is how many reads of a server (by id, or in a listing) its
	// guest takes to boot after the action that restarts it succeeded. The
	// API reports a reset done once it is sent, and rescue_enabled turns
	// false only when the boot has fetched the rescue system; 0 boots the
	// guest as the action succeeds.
	BootReads int
}

// Emulator is the Hetzner Cloud API in memory. It is safe for concurrent
// use; every API call runs under one lock, which keeps uniqueness checks
// and action lifecycles exact under concurrent clients.
type Emulator struct {
	opts   Options
	cat    *catalog
	faults *faults.Middleware
	mux    *http.ServeMux

	mu           sync.Mutex
	servers      map[int64]*server
	actions      map[int64]*action
	running      []*action // in id order
	sshKeys      map[int64]*sshKey
	lastID       map[string]int64
	addrs        addressPool
	actionFaults []actionFault

	tokenMu       sync.RWMutex
	readOnlyToken string
}

// New returns an emulator with the fixed catalog and no servers.
func New(opts Options) *Emulator {
	if opts.ActionPolls == 0 {
		opts.ActionPolls = 1
	}
	e := &Emulator{
		opts:    opts,
		cat:     newCatalog(),
		servers: map[int64]*server{},
		actions: map[int64]*action{},
		sshKeys: map[int64]*sshKey{},
		// Each kind of id counts in its own range, so a test or client that
		// confuses an action id with a server id fails instead of passing.
		lastID: map[string]int64{"server": 4_200_000, "action": 9_100_000, "primary_ip": 51_000_000, "ssh_key": 2_300_000},

		readOnlyToken: opts.ReadOnlyToken,
	}
	e.mux = http.NewServeMux()
	e.routes()
	e.faults = faults.New(http.HandlerFunc(e.serveAPI), faults.Config{APIPrefix: BasePath, ErrorBody: errorBody, Control: e.paceControl(),
		Routed: faults.MuxRouted(e.mux)})
	e.faults.SetLatency(opts.Latency)
	return e
}

func (e *Emulator) routes() {
	for pattern, h := range map[string]http.HandlerFunc{
		"GET /v1/servers":                          e.listServers,
		"POST /v1/servers":                         e.createServer,
		"GET /v1/servers/{id}":                     e.getServer,
		"PUT /v1/servers/{id}":                     e.updateServer,
		"DELETE /v1/servers/{id}":                  e.deleteServer,
		"POST /v1/servers/{id}/actions/{command}":  e.serverAction,
		"GET /v1/servers/{first}/{second}":         e.serverSubresource,
		"GET /v1/servers/{id}/actions/{action_id}": e.getServerAction,
		"GET /v1/servers/actions":                  e.listAllServerActions,
		"GET /v1/actions":                          e.listActions,
		"GET /v1/actions/{id}":                     e.getAction,
		"GET /v1/server_types":                     e.listServerTypes,
		"GET /v1/server_types/{id}":                e.getServerType,
		"GET /v1/locations":                        e.listLocations,
		"GET /v1/locations/{id}":                   e.getLocation,
		"GET /v1/datacenters":                      e.listDatacenters,
		"GET /v1/datacenters/{id}":                 e.getDatacenter,
		"GET /v1/images":                           e.listImages,
		"GET /v1/images/{id}":                      e.getImage,
		"GET /v1/ssh_keys":                         e.listSSHKeys,
		"POST /v1/ssh_keys":                        e.createSSHKey,
		"GET /v1/ssh_keys/{id}":                    e.getSSHKey,
		"PUT /v1/ssh_keys/{id}":                    e.updateSSHKey,
		"DELETE /v1/ssh_keys/{id}":                 e.deleteSSHKey,
	} {
		e.mux.HandleFunc(pattern, h)
	}
}

// ServeHTTP serves the API under BasePath and the control API under
// /_emulator (see package faults).
func (e *Emulator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// The API names every answer, a scripted failure's too.
	w.Header().Set("X-Correlation-Id", correlationID())
	e.faults.ServeHTTP(w, r)
}

func (e *Emulator) serveAPI(w http.ResponseWriter, r *http.Request) {
	if e.authorize(w, r) {
		return
	}
	h, pattern := e.mux.Handler(r)
	if pattern == "" {
		// The mux would answer 404 or 405 in plain text; the API answers JSON.
		probe := &statusProbe{header: http.Header{}}
		h.ServeHTTP(probe, r)
		if probe.status == http.StatusMethodNotAllowed {
			w.Header().Set("Allow", probe.header.Get("Allow"))
			writeError(w, &apiError{status: http.StatusMethodNotAllowed, code: "method_not_allowed", message: r.Method + " is not allowed on " + r.URL.Path})
			return
		}
		writeError(w, &apiError{status: http.StatusNotFound, code: "not_found", message: "no API route " + r.URL.Path})
		return
	}
	// Serve through the mux rather than h: only the mux sets the path
	// values the handlers read.
	e.mux.ServeHTTP(w, r)
}

func correlationID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

type statusProbe struct {
	header http.Header
	status int
}

func (p *statusProbe) Header() http.Header { return p.header }
func (p *statusProbe) Write(b []byte) (int, error) {
	if p.status == 0 {
		p.status = http.StatusOK
	}
	return len(b), nil
}
func (p *statusProbe) WriteHeader(status int) { p.status = status }

// pathID reads a numeric path segment; anything else names no object.
func pathID(r *http.Request, name string) (int64, bool) {
	id, err := strconv.ParseInt(r.PathValue(name), 10, 64)
	return id, err == nil && id > 0
}

func (e *Emulator) nextIDLocked(kind string) int64 {
	e.lastID[kind]++
	return e.lastID[kind]
}

// Faults returns the fault middleware for scripting beyond the shortcuts
// below (rules that combine a delay with a status, unlimited failures, the
// control API state).
func (e *Emulator) Faults() *faults.Middleware { return e.faults }

// FailNext answers the next n calls of method on route (e.g. "GET",
// "/servers/{id}") with status and the API error code.
func (e *Emulator) FailNext(method, route string, n, status int, code string) {
	mustRule(e.faults.FailNext(method, route, n, status, code))
}

// DropNext commits the next n calls of method on route and then closes the
// connection without answering. Go's http.Transport resends a GET once when
// a reused connection closes unanswered, so drop two GETs to make hcloud-go
// see the failure; POST, PUT and DELETE are never resent.
func (e *Emulator) DropNext(method, route string, n int) {
	mustRule(e.faults.DropNext(method, route, n))
}

// DelayIfConnectedNext holds the next n calls of method on route for d and
// runs each only if its client is still there: a client that gives up
// first leaves nothing committed.
func (e *Emulator) DelayIfConnectedNext(method, route string, n int, d time.Duration) {
	mustRule(e.faults.DelayIfConnectedNext(method, route, n, d))
}

// DelayThenCommitNext holds the next n calls of method on route for d and
// then runs each whether or not its client is still there, as the real API
// does with a request it received: a client that gave up meanwhile never
// learns that its write took effect.
func (e *Emulator) DelayThenCommitNext(method, route string, n int, d time.Duration) {
	mustRule(e.faults.DelayThenCommitNext(method, route, n, d))
}

// CommitThenDelayNext commits the next n calls of method on route at once
// and holds each answer back for d, so a client whose timeout is shorter
// gives up on a call that took effect: a create whose answer is lost.
func (e *Emulator) CommitThenDelayNext(method, route string, n int, d time.Duration) {
	mustRule(e.faults.CommitThenDelayNext(method, route, n, d))
}

// mustRule panics on a rule the test wrote wrongly, such as a 2xx status;
// a silently ignored fault would make the test pass for the wrong reason.
func mustRule(err error) {
	if err != nil {
		panic("hcloud emulator: " + err.Error())
	}
}

// SetLatency delays every API request by d, as a delay_if_connected: a
// request whose client gives up meanwhile is never served.
func (e *Emulator) SetLatency(d time.Duration) { e.faults.SetLatency(d) }

// SetRateLimit enforces a budget of limit requests per window with the
// API's RateLimit-* headers; limit 0 removes it.
func (e *Emulator) SetRateLimit(limit int, window time.Duration) {
	e.faults.SetRateLimit(limit, window)
}

// SetMaxPageSize lowers the largest page a list returns (50 by default),
// so a test can make a client follow pages without creating hundreds of
// servers. n <= 0 restores the default. It is a fault like the others:
// POST /_emulator/faults sets it as max_page_size, and clearing the faults
// restores the default.
func (e *Emulator) SetMaxPageSize(n int) { e.faults.SetMaxPageSize(n) }

func (e *Emulator) pageSize() int {
	if n := e.faults.MaxPageSize(); n > 0 && n < maxPerPage {
		return n
	}
	return maxPerPage
}

// SetOffBeforeStart switches Options.OffBeforeStart for the creates that
// follow.
func (e *Emulator) SetOffBeforeStart(on bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.opts.OffBeforeStart = on
}

// Stats returns request counts keyed "METHOD /route", e.g.
// "GET /servers/{id}"; control routes are not counted.
func (e *Emulator) Stats() map[string]int { return e.faults.Stats() }

// ResetStats sets the request counts back to zero.
func (e *Emulator) ResetStats() { e.faults.Reset() }

// NewServer starts a new emulator on 127.0.0.1 at a free port. It returns
// the API endpoint (the URL hcloud.WithEndpoint takes, ending in /v1) and a
// function that stops the server; the server also stops when ctx ends.
// The control API is at the endpoint's host under /_emulator.
func NewServer(ctx context.Context, opts Options) (*Emulator, string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", nil, err
	}
	e := New(opts)
	srv := &http.Server{Handler: e, ReadHeaderTimeout: 10 * time.Second}
	// Serve returns http.ErrServerClosed once stopped; nothing to report.
	go func() { _ = srv.Serve(ln) }()
	var once sync.Once
	closeServer := func() { once.Do(func() { _ = srv.Close() }) }
	unwatch := context.AfterFunc(ctx, closeServer)
	stop := func() {
		unwatch()
		closeServer()
	}
	return e, "http://" + ln.Addr().String() + BasePath, stop, nil
}
