// Package fleet keeps the servers of an emulated REST API: what every
// emulator of an API with servers would otherwise write again. A fleet
// stores servers by id (counting from 1001), hands each an address from
// the documentation range 198.51.100.0/24 (never dialled), stamps its
// creation on the emulator's clock and keeps its labels. A new server
// reads "provisioning" once and then "running", a switched one "starting"
// or "stopping" once, so only a caller that reads again sees it settle.
// Around the store it has the handlers an item route needs (the path's
// server or the API's not-found, through the faults middleware), a
// label-selected listing cut into the middleware's pages, Seed (a server
// made behind the provider's back), a sorted snapshot for tests, and the
// conformance hooks' Stage from a table of status words (stage.go).
//
// An emulator's server type embeds Machine and adds the API's own fields,
// tagged with the API's JSON names; it is then also the API's JSON, with
// Machine's fields (id, name, status, ipv4, labels, created: the plainest
// REST spelling) beside the rest:
//
//	type Server struct {
//		fleet.Machine        // id, name, status, ipv4, labels, created
//		Size   string `json:"size"`
//		Region string `json:"region"`
//	}
//
//	servers := fleet.New[Server](middleware, fleet.Config{})
//	mux.HandleFunc("GET /v1/servers", servers.List)
//	mux.HandleFunc("GET /v1/servers/{id}", servers.Item(servers.Show))
//
// The fleet is generic over the server type so that an API's own fields
// stay typed (s.Size, not s.Extra["size"]); its type is spelt with the
// pointer beside it, *fleet.Fleet[Server, *Server], which New infers. Its
// methods return servers as copies and hand handlers the stored *Server.
//
// An API in the plainest REST shape takes the ready handlers of plain.go
// for its routes and writes only its create; an API with a richer server
// (nested addresses, several networks) keeps its own view type, renders it
// from the stored server, and writes its handlers with Item, Listed,
// Power and Stage.
//
// It imports the standard library and internal/emulator/{faults,hooks,clock}
// only (depguard's fleet-imports-stdlib-and-the-shared-emulator-pieces-only):
// never a particular emulator, an adapter, the contract or a plugin SDK.
package fleet

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/clock"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
)

// Machine is the part of a server the fleet keeps for every API. Its JSON
// names are the plainest REST API's, lower case as an API documents them;
// an API that spells them otherwise renders a view type of its own.
type Machine struct {
	ID      int               `json:"id"`
	Name    string            `json:"name"`
	Status  string            `json:"status"`
	IPv4    string            `json:"ipv4"`
	Labels  map[string]string `json:"labels"`
	Created time.Time         `json:"created"`
	// settle is the status the next read leaves behind.
	settle string
}

func (m *Machine) machine() *Machine { return m }

// Embeds is what a fleet asks of its server type S: a pointer to S reaches
// the Machine S embeds.
type Embeds[S any] interface {
	*S
	machine() *Machine
}

// Words are an API's status words; each empty one is the plainest API's:
// provisioning, running, off, starting, stopping (Hetzner Cloud's, but
// for its "initializing").
type Words struct{ Provisioning, Running, Off, Starting, Stopping string }

// Config describes the API a fleet serves; its zero value is the plainest
// REST API's (a "server" noun, the status words provisioning, running, off,
// starting and stopping).
type Config struct {
	// Noun names a server in errors ("server 42 not found") and in the
	// plain handlers' JSON ({"server": …}, {"servers": […]}); "server" if
	// empty.
	Noun string
	// Clock stamps Created; the wall clock if nil, so an emulator with a
	// clock of its own passes it.
	Clock clock.Clock
	// PageSize is the most servers a page of the listing holds, before a
	// test lowers it through the middleware; 50 if 0.
	PageSize int
	// Words are the API's status words.
	Words Words
}

// Fleet holds the servers of one emulator. It is safe for concurrent use.
type Fleet[S any, P Embeds[S]] struct {
	api  *faults.Middleware
	cfg  Config
	mu   sync.Mutex
	byID map[int]P
	last int
}

// New is an empty fleet whose errors api writes in the API's body.
func New[S any, P Embeds[S]](api *faults.Middleware, cfg Config) *Fleet[S, P] {
	w := &cfg.Words
	w.Provisioning, w.Running, w.Off = cmp.Or(w.Provisioning, "provisioning"), cmp.Or(w.Running, "running"), cmp.Or(w.Off, "off")
	w.Starting, w.Stopping = cmp.Or(w.Starting, "starting"), cmp.Or(w.Stopping, "stopping")
	cfg.Noun, cfg.PageSize = cmp.Or(cfg.Noun, "server"), cmp.Or(cfg.PageSize, 50)
	if cfg.Clock == nil {
		cfg.Clock = clock.Wall{}
	}
	return &Fleet[S, P]{api: api, cfg: cfg, byID: map[int]P{}, last: 1000}
}

// Create stores s as a new server, provisioning until it is read once,
// and returns it as the create's answer shows it.
func (f *Fleet[S, P]) Create(s S) S { return f.add(s, f.cfg.Words.Provisioning, f.cfg.Words.Running) }

// Seed stores s as a server made behind the provider's back (in the
// console, by another tool), running already, and returns it.
func (f *Fleet[S, P]) Seed(s S) S { return f.add(s, f.cfg.Words.Running, "") }

// add gives s the next id, an address (198.51.100.1 to .250 in turn,
// which no test connects to), the time now and labels, and status, which
// settles to settle one read later.
func (f *Fleet[S, P]) add(s S, status, settle string) S {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.last++
	p := P(&s)
	m := p.machine()
	m.ID, m.IPv4, m.Created = f.last, fmt.Sprintf("198.51.100.%d", f.last%250+1), f.cfg.Clock.Now().UTC()
	m.Status, m.settle, m.Labels = status, settle, maps.Clone(m.Labels)
	if m.Labels == nil {
		m.Labels = map[string]string{}
	}
	f.byID[m.ID] = p
	return copied(p)
}

// Servers are every server in id order, as the API shows them now,
// without reading them: a test's look settles nothing.
func (f *Fleet[S, P]) Servers() []S {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := []S{}
	for _, id := range slices.Sorted(maps.Keys(f.byID)) {
		out = append(out, copied(f.byID[id]))
	}
	return out
}

// read is what one read of s shows; the read settles a transitional
// status. Called with f.mu held.
func read[S any, P Embeds[S]](s P) S {
	shown, m := copied(s), s.machine()
	if m.settle != "" {
		m.Status, m.settle = m.settle, ""
	}
	return shown
}

// copied is s with labels of its own, which the fleet's later writes
// leave alone.
func copied[S any, P Embeds[S]](s P) S {
	c := *s
	P(&c).machine().Labels = maps.Clone(s.machine().Labels)
	return c
}

// Power switches s on or off, through starting or stopping, which the
// next read settles; a server already there, or on its way, is left as it
// is. Call it from an Item handler.
func (f *Fleet[S, P]) Power(s P, on bool) {
	m, w := s.machine(), f.cfg.Words
	switch {
	case on && m.Status == w.Off:
		m.Status, m.settle = w.Starting, w.Running
	case !on && m.Status == w.Running:
		m.Status, m.settle = w.Stopping, w.Off
	}
}
