// Package robot is a stateful, in-memory emulator of the Hetzner Robot
// webservice (robot-ws.your-server.de) for dedicated servers: rented
// servers and their names, cancellations, order reversals, resets, Wake
// on LAN, the rescue system and the Linux installation, SSH keys, the
// product catalog, the server market and orders. It answers in Robot's
// shapes (form-encoded requests, JSON envelopes such as {"server":{…}},
// lists of envelopes, {"error":{"status","code",…}}),
// behind HTTP Basic auth and Robot's per-route request limits, wrapped in
// the faults middleware, with a Go and an HTTP API to seed rented servers.
//
// The machines behind the servers come from a metal.Farm: the emulator
// reports a machine's loopback address as the server's IP, arms its rescue
// system and resets it; what answers on SSH is the farm's business.
//
// It imports only the standard library and the emulators' shared packages
// (internal/emulator/faults, hooks, metal and secrettap); it never imports
// the provider's adapters, which talk to it over HTTP.
package robot

import (
	"context"
	"crypto/subtle"
	"errors"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/metal"
)

// ControlPrefix is where the emulator's control API lives (stats, faults,
// servers, orders), apart from the hcloud emulator's /_emulator when both
// share a port.
const ControlPrefix = "/_emulator/robot"

// Options configure an Emulator.
type Options struct {
	// User and Password are the webservice user's HTTP Basic credentials;
	// any other (or none) is answered 401 UNAUTHORIZED. An empty User
	// accepts every request.
	User, Password string
	// Farm makes the machine behind every server; required.
	Farm metal.Farm
	// Latency delays every API request (the faults' delay_if_connected).
	Latency time.Duration
	// Now is the emulator's clock (request limits, cancellation dates,
	// order delivery, manual resets); time.Now if nil.
	Now func() time.Time
	// RateLimits are the request budgets by route ("GET /server"); nil
	// means DefaultRateLimits. Unlimited switches them all off.
	RateLimits map[string]Limit
	Unlimited  bool
	// CancelDelay is how long a server cancelled for "now" stays listed
	// before it is gone (SERVER_NOT_FOUND); 0 means DefaultCancelDelay.
	CancelDelay time.Duration
	// Orders is how orders are delivered; see OrderPace.
	Orders OrderPace
	// ManualResetDuration is how long a "man" reset keeps a technician
	// busy (RESET_MANUAL_ACTIVE meanwhile); 0 means a minute.
	ManualResetDuration time.Duration
}

// DefaultCancelDelay is how long a server cancelled for "now" stays: long
// enough for a client to read the cancellation back, short for tests.
const DefaultCancelDelay = 200 * time.Millisecond

// Emulator is the Robot webservice in memory. It is safe for concurrent
// use; every API call runs under one lock.
type Emulator struct {
	opts   Options
	now    func() time.Time
	faults *faults.Middleware
	mux    *http.ServeMux
	limits *limiter

	mu         sync.Mutex
	servers    map[int]*server
	keys       map[string]*sshKey
	keySeq     int
	orders     map[string]*transaction
	orderSeq   []string // transaction ids in order
	market     map[int]*marketProduct
	lastNumber int
	lastV6     int
	orderPace  OrderPace
	failOrders int

	closeOnce sync.Once
	closed    chan struct{}
	wg        sync.WaitGroup
}

// New returns an emulator with the fixed catalog, no keys and no servers.
func New(opts Options) (*Emulator, error) {
	if opts.Farm == nil {
		return nil, errors.New("robot emulator: Options.Farm is required: the servers need machines")
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.CancelDelay <= 0 {
		opts.CancelDelay = DefaultCancelDelay
	}
	if opts.ManualResetDuration <= 0 {
		opts.ManualResetDuration = time.Minute
	}
	limits := opts.RateLimits
	if limits == nil {
		limits = DefaultRateLimits()
	}
	if opts.Unlimited {
		limits = nil
	}
	e := &Emulator{
		opts: opts, now: opts.Now, limits: newLimiter(limits),
		servers: map[int]*server{}, keys: map[string]*sshKey{}, orders: map[string]*transaction{},
		market: newMarket(), orderPace: opts.Orders, closed: make(chan struct{}),
		// Server numbers as Robot's look: seven digits.
		lastNumber: 2_100_000,
	}
	e.mux = http.NewServeMux()
	e.routes()
	e.faults = faults.New(http.HandlerFunc(e.serveAPI), faults.Config{
		ControlPrefix: ControlPrefix, ErrorBody: errorBody, Route: Route,
		RateLimitCode: codeRateLimitExceeded, Now: opts.Now, Control: e.control(), Routed: faults.MuxRouted(e.mux),
	})
	e.faults.SetLatency(opts.Latency)
	return e, nil
}

func (e *Emulator) routes() {
	for pattern, h := range e.handlers() {
		e.mux.HandleFunc(pattern, h)
	}
}

// Routes lists the webservice routes the emulator serves, as ServeMux
// patterns ("GET /server/{n}"), sorted.
func (e *Emulator) Routes() []string {
	out := make([]string, 0, len(e.handlers()))
	for pattern := range e.handlers() {
		out = append(out, pattern)
	}
	slices.Sort(out)
	return out
}

func (e *Emulator) handlers() map[string]http.HandlerFunc {
	return map[string]http.HandlerFunc{
		"GET /server":                               e.listServers("server", (*server).summary),
		"GET /server/{n}":                           e.onServer(getServer),
		"POST /server/{n}":                          e.onServer(renameServer),
		"GET /server/{n}/cancellation":              e.onServer(e.getCancellation),
		"POST /server/{n}/cancellation":             e.onServer(e.cancelServer),
		"DELETE /server/{n}/cancellation":           e.onServer(revokeCancellation),
		"POST /server/{n}/reversal":                 e.onServer(e.reverseOrder),
		"GET /reset":                                e.listServers("reset", resetsListed),
		"GET /reset/{n}":                            e.onServer(resettable(getReset)),
		"POST /reset/{n}":                           e.onServer(resettable(e.reset)),
		"GET /wol/{n}":                              e.onServer(wakeable(getWol)),
		"POST /wol/{n}":                             e.onServer(wakeable(sendWol)),
		"GET /boot/{n}":                             e.onServer(getBoot),
		"GET /boot/{n}/rescue":                      e.onServer(rescueBoot.get),
		"POST /boot/{n}/rescue":                     e.onServer(rescueBoot.activate(e)),
		"DELETE /boot/{n}/rescue":                   e.onServer(rescueBoot.deactivate),
		"GET /boot/{n}/rescue/last":                 e.onServer(rescueBoot.last),
		"GET /boot/{n}/linux":                       e.onServer(linuxBoot.get),
		"POST /boot/{n}/linux":                      e.onServer(linuxBoot.activate(e)),
		"DELETE /boot/{n}/linux":                    e.onServer(linuxBoot.deactivate),
		"GET /boot/{n}/linux/last":                  e.onServer(linuxBoot.last),
		"GET /key":                                  e.listKeys,
		"POST /key":                                 e.createKey,
		"GET /key/{fp}":                             e.getKey,
		"POST /key/{fp}":                            e.renameKey,
		"DELETE /key/{fp}":                          e.deleteKey,
		"GET /order/server/product":                 e.listProducts,
		"GET /order/server/product/{id}":            e.getProduct,
		"GET /order/server/transaction":             e.listOrders(kindStandard),
		"POST /order/server/transaction":            e.order(kindStandard),
		"GET /order/server/transaction/{id}":        e.getOrder(kindStandard),
		"GET /order/server_market/product":          e.listMarket,
		"GET /order/server_market/product/{id}":     e.getMarketProduct,
		"GET /order/server_market/transaction":      e.listOrders(kindMarket),
		"POST /order/server_market/transaction":     e.order(kindMarket),
		"GET /order/server_market/transaction/{id}": e.getOrder(kindMarket),
	}
}

// Route names a request path's route for the request counts and fault
// rules: numbers become {id}, a key's fingerprint {fingerprint} and a
// product's or transaction's id {id}, so "/key/aa:bb…" reads
// "/key/{fingerprint}" and "/order/server/product/AX42"
// "/order/server/product/{id}".
func Route(path string) string {
	segs := strings.Split(path, "/")
	if len(segs) >= 3 && segs[1] == "key" && segs[2] != "" {
		segs[2] = "{fingerprint}"
	}
	if len(segs) >= 5 && segs[1] == "order" && segs[4] != "" {
		segs[4] = "{id}"
	}
	return faults.Route(strings.Join(segs, "/"))
}

// ServeHTTP serves the webservice at the root and the control API under
// ControlPrefix.
func (e *Emulator) ServeHTTP(w http.ResponseWriter, r *http.Request) { e.faults.ServeHTTP(w, r) }

func (e *Emulator) serveAPI(w http.ResponseWriter, r *http.Request) {
	if !e.authorized(r) {
		w.Header().Set("WWW-Authenticate", `Basic realm="Webservice"`)
		writeError(w, errUnauthorized)
		return
	}
	_, pattern := e.mux.Handler(r)
	if pattern == "" {
		writeError(w, notFound("no webservice route %s %s", r.Method, r.URL.Path))
		return
	}
	if err := e.limits.take(r.Method+" "+Route(r.URL.Path), e.now()); err != nil {
		writeError(w, err)
		return
	}
	e.mu.Lock()
	e.advanceLocked()
	e.mu.Unlock()
	e.mux.ServeHTTP(w, r)
}

func (e *Emulator) authorized(r *http.Request) bool {
	if e.opts.User == "" {
		return true
	}
	user, password, ok := r.BasicAuth()
	userOK := subtle.ConstantTimeCompare([]byte(user), []byte(e.opts.User)) == 1
	passwordOK := subtle.ConstantTimeCompare([]byte(password), []byte(e.opts.Password)) == 1
	return ok && userOK && passwordOK
}

// advanceLocked lets time do what it does between requests: cancelled
// servers leave at their date, orders due by wall time are delivered.
func (e *Emulator) advanceLocked() {
	now := e.now()
	for n, s := range e.servers {
		if !s.goneAt.IsZero() && !now.Before(s.goneAt) {
			e.removeLocked(n)
		}
	}
	for _, id := range e.orderSeq {
		t := e.orders[id]
		if t.status == statusInProcess && t.pace.Duration > 0 && !now.Before(t.date.Add(t.pace.Duration.Std())) {
			e.settleLocked(t)
		}
	}
}

// serverNumber reads the {n} path segment; anything else names no server.
func serverNumber(r *http.Request) (int, bool) {
	n, err := strconv.Atoi(r.PathValue("n"))
	return n, err == nil && n > 0
}

// Faults returns the fault middleware.
func (e *Emulator) Faults() *faults.Middleware { return e.faults }

// Stats returns request counts keyed "METHOD /route", e.g.
// "GET /server/{id}"; control routes are not counted.
func (e *Emulator) Stats() map[string]int { return e.faults.Stats() }

// ResetStats sets the request counts back to zero.
func (e *Emulator) ResetStats() { e.faults.Reset() }

// Close stops the emulator's watchers (rescue disarming); it does not
// close the farm, which belongs to whoever made it.
func (e *Emulator) Close() {
	e.closeOnce.Do(func() { close(e.closed) })
	e.wg.Wait()
}

// NewServer starts a new emulator on 127.0.0.1 at a free port. It returns
// the webservice's endpoint (no trailing slash) and a function that stops
// the server and the emulator; the server also stops when ctx ends.
func NewServer(ctx context.Context, opts Options) (*Emulator, string, func(), error) {
	e, err := New(opts)
	if err != nil {
		return nil, "", nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", nil, err
	}
	srv := &http.Server{Handler: e, ReadHeaderTimeout: 10 * time.Second}
	// Serve returns http.ErrServerClosed once stopped; nothing to report.
	go func() { _ = srv.Serve(ln) }()
	var once sync.Once
	closeServer := func() { once.Do(func() { _ = srv.Close(); e.Close() }) }
	unwatch := context.AfterFunc(ctx, closeServer)
	stop := func() {
		unwatch()
		closeServer()
	}
	return e, "http://" + ln.Addr().String(), stop, nil
}
