// Package toycloud emulates Toy Cloud, an imaginary cloud of servers with
// labels, one bearer token and regions: the worked example of a new
// backend (CONTRIBUTING.md, "Adding a backend"), kept in the tests. Its
// API, below BasePath, with "Authorization: Bearer TOKEN": GET /sizes;
// GET /servers (?page=N, ?label=KEY=VALUE; {"servers", "next_page"}),
// POST /servers; GET, PATCH and DELETE /servers/{id}; POST
// /servers/{id}/power {"action": "on"|"off"}. A new server reads
// "provisioning" once, a switched one "starting" or "stopping" once, so
// only a caller that reads again sees it settle. Faults, request counts
// and the control API are internal/emulator/faults', under ControlPrefix.
package toycloud

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
)

// BasePath is where the API starts; ControlPrefix is its control API.
const (
	BasePath      = "/v1"
	ControlPrefix = "/_emulator/toycloud"
)

// Options configure an emulator.
type Options struct {
	Token   string
	Latency time.Duration
}

// Server is a server as the API shows it; settle is the status the next
// read leaves behind.
type Server struct {
	ID                        int
	Name, Size, Image, Region string
	Status, IPv4              string
	Labels                    map[string]string
	Created                   time.Time
	settle                    string
}

var (
	sizes  = []size{{"tiny", 1, 512, []string{"north", "south"}, 0.004}, {"large", 4, 8192, []string{"north"}, 0.03}}
	images = []string{"plain", "plain-next"}
)

type size struct {
	Name             string
	VCPUs, MemoryMiB int
	Regions          []string
	Hourly           float64
}

// Emulator is the API, an http.Handler.
type Emulator struct {
	*faults.Middleware
	opts    Options
	mu      sync.Mutex
	servers map[int]*Server
	next    int
}

// New is an emulator that accepts opts.Token.
func New(opts Options) *Emulator {
	e := &Emulator{opts: opts, servers: map[int]*Server{}, next: 1000}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /v1/sizes", func(w http.ResponseWriter, _ *http.Request) { reply(w, 200, map[string]any{"sizes": sizes}) })
	mux.HandleFunc("GET /v1/servers", e.list)
	mux.HandleFunc("POST /v1/servers", e.create)
	mux.HandleFunc("GET /v1/servers/{id}", e.withServer(func(w http.ResponseWriter, _ *http.Request, s *Server) {
		reply(w, 200, map[string]any{"server": s.read()})
	}))
	mux.HandleFunc("PATCH /v1/servers/{id}", e.withServer(e.update))
	mux.HandleFunc("DELETE /v1/servers/{id}", e.withServer(func(w http.ResponseWriter, _ *http.Request, s *Server) {
		delete(e.servers, s.ID)
		w.WriteHeader(http.StatusNoContent)
	}))
	mux.HandleFunc("POST /v1/servers/{id}/power", e.withServer(e.power))
	auth := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+e.opts.Token {
			fail(w, http.StatusUnauthorized, "unauthorized", "the token is not valid")
			return
		}
		mux.ServeHTTP(w, r)
	})
	e.Middleware = faults.New(auth, faults.Config{APIPrefix: BasePath, ControlPrefix: ControlPrefix, Routed: faults.MuxRouted(mux)})
	e.SetLatency(opts.Latency)
	return e
}

// Servers are every server, as the API shows them now.
func (e *Emulator) Servers() []Server {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := []Server{}
	for _, id := range slices.Sorted(maps.Keys(e.servers)) {
		out = append(out, *e.servers[id])
	}
	return out
}

// Seed adds a running server behind the provider's back, as a user would
// in the console, and returns its id.
func (e *Emulator) Seed(name string, labels map[string]string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.add(Server{Name: name, Size: "tiny", Image: "plain", Region: "north", Labels: labels, Status: "running"}).ID
}

// add stores s with the next id and an address; called with e.mu held.
func (e *Emulator) add(s Server) *Server {
	e.next++
	s.ID, s.IPv4, s.Created = e.next, fmt.Sprintf("198.51.100.%d", e.next%250+1), time.Now().UTC()
	if s.Labels == nil {
		s.Labels = map[string]string{}
	}
	e.servers[s.ID] = &s
	return &s
}

// read is what one read shows; called with e.mu held.
func (s *Server) read() Server {
	shown := *s
	if s.settle != "" {
		s.Status, s.settle = s.settle, ""
	}
	return shown
}

func (e *Emulator) list(w http.ResponseWriter, r *http.Request) {
	k, v, byLabel := strings.Cut(r.URL.Query().Get("label"), "=")
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	per := cmp.Or(e.MaxPageSize(), 50)
	e.mu.Lock()
	defer e.mu.Unlock()
	all := []Server{}
	for _, id := range slices.Sorted(maps.Keys(e.servers)) {
		if s := e.servers[id]; !byLabel || s.Labels[k] == v {
			all = append(all, s.read())
		}
	}
	start, next := min(max(page-1, 0)*per, len(all)), 0
	if start+per < len(all) {
		next = max(page, 1) + 1
	}
	reply(w, 200, map[string]any{"servers": all[start:min(start+per, len(all))], "next_page": next})
}

// body is what the writes take; what does not decode is left empty, for
// the checks to refuse.
type body struct {
	Name                        *string
	Size, Image, Region, Action string
	Labels                      map[string]string
}

func decode(r *http.Request) (in body) {
	_ = json.NewDecoder(r.Body).Decode(&in)
	return in
}

func (e *Emulator) create(w http.ResponseWriter, r *http.Request) {
	in := decode(r)
	i := slices.IndexFunc(sizes, func(s size) bool { return s.Name == in.Size })
	switch {
	case in.Name == nil || *in.Name == "":
		fail(w, http.StatusBadRequest, "invalid_input", "a server needs a name")
	case i < 0:
		fail(w, http.StatusBadRequest, "invalid_size", fmt.Sprintf("size %q does not exist", in.Size))
	case !slices.Contains(sizes[i].Regions, in.Region):
		fail(w, http.StatusBadRequest, "invalid_region", fmt.Sprintf("size %s is not sold in region %q", in.Size, in.Region))
	case !slices.Contains(images, in.Image):
		fail(w, http.StatusBadRequest, "invalid_image", fmt.Sprintf("image %q does not exist", in.Image))
	default:
		e.mu.Lock()
		s := e.add(Server{Name: *in.Name, Size: in.Size, Image: in.Image, Region: in.Region, Labels: in.Labels, Status: "provisioning", settle: "running"})
		out := *s
		e.mu.Unlock()
		reply(w, http.StatusCreated, map[string]any{"server": out})
	}
}

// withServer finds the path's server for h, which runs with e.mu held.
func (e *Emulator) withServer(h func(w http.ResponseWriter, r *http.Request, s *Server)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, _ := strconv.Atoi(r.PathValue("id"))
		e.mu.Lock()
		defer e.mu.Unlock()
		if s, ok := e.servers[id]; ok {
			h(w, r, s)
			return
		}
		fail(w, http.StatusNotFound, "not_found", "server "+r.PathValue("id")+" not found")
	}
}

func (e *Emulator) update(w http.ResponseWriter, r *http.Request, s *Server) {
	in := decode(r)
	if in.Name != nil {
		s.Name = *in.Name
	}
	if in.Labels != nil {
		s.Labels = in.Labels
	}
	reply(w, 200, map[string]any{"server": *s})
}

func (e *Emulator) power(w http.ResponseWriter, r *http.Request, s *Server) {
	in := decode(r)
	switch {
	case in.Action == "on" && s.Status == "off":
		s.Status, s.settle = "starting", "running"
	case in.Action == "off" && s.Status == "running":
		s.Status, s.settle = "stopping", "off"
	case in.Action != "on" && in.Action != "off":
		fail(w, http.StatusBadRequest, "invalid_input", fmt.Sprintf("action %q: want on or off", in.Action))
		return
	}
	w.WriteHeader(http.StatusAccepted)
}

func reply(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func fail(w http.ResponseWriter, status int, code, message string) {
	reply(w, status, map[string]any{"error": map[string]string{"code": code, "message": message}})
}
