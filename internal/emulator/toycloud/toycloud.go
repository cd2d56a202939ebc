// Package toycloud emulates Toy Cloud, an imaginary cloud of servers with
// labels, one bearer token and regions, over JSON and HTTP. It is the
// worked example of a new backend (CONTRIBUTING.md, "Adding a backend"),
// kept in the tests: internal/adapter/toycloud speaks to it, and
// tools/emulator serves it when built with the testbackends tag. It never
// reaches users.
//
// The API, below /v1, with "Authorization: Bearer TOKEN":
//
//	GET    /sizes                the sizes: {"sizes": [{"name": "tiny", "vcpus": 1, ...}]}
//	GET    /servers              ?page=N&label=KEY=VALUE; {"servers": [...], "next_page": 0}
//	POST   /servers              {"name", "size", "image", "region", "labels", "user_data"}: 201 {"server": {...}}
//	GET    /servers/{id}         {"server": {...}}; 404 {"error": {"code": "not_found"}}
//	PATCH  /servers/{id}         {"name", "labels"}: {"server": {...}}
//	DELETE /servers/{id}         204
//	POST   /servers/{id}/power   {"action": "on"|"off"}: 202
//
// A new server reads "provisioning" once, then "running"; a power switch
// reads "starting" or "stopping" once, then "running" or "off": only a
// caller that reads again sees a machine settle. Faults, request counts
// and the conformance hooks come from internal/emulator/faults, under
// ControlPrefix. It imports the standard library and that package only.
package toycloud

import (
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

// Server is a server as the API shows it.
type Server struct {
	ID      int               `json:"id"`
	Name    string            `json:"name"`
	Size    string            `json:"size"`
	Image   string            `json:"image"`
	Region  string            `json:"region"`
	Status  string            `json:"status"`
	IPv4    string            `json:"ipv4"`
	Labels  map[string]string `json:"labels"`
	Created time.Time         `json:"created"`
	// settle is the status the next read leaves behind it.
	settle string
}

type size struct {
	Name      string   `json:"name"`
	VCPUs     int      `json:"vcpus"`
	MemoryMiB int      `json:"memory_mib"`
	Regions   []string `json:"regions"`
	Hourly    float64  `json:"price_hourly"`
}

var sizes = []size{
	{Name: "tiny", VCPUs: 1, MemoryMiB: 512, Regions: []string{"north", "south"}, Hourly: 0.004},
	{Name: "large", VCPUs: 4, MemoryMiB: 8192, Regions: []string{"north"}, Hourly: 0.03},
}

var images = []string{"plain", "plain-next"}

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
	mux.HandleFunc("GET /v1/servers/{id}", e.withServer(e.get))
	mux.HandleFunc("PATCH /v1/servers/{id}", e.withServer(e.update))
	mux.HandleFunc("DELETE /v1/servers/{id}", e.withServer(e.remove))
	mux.HandleFunc("POST /v1/servers/{id}/power", e.withServer(e.power))
	e.Middleware = faults.New(e.authorized(mux), faults.Config{APIPrefix: BasePath, ControlPrefix: ControlPrefix, Routed: faults.MuxRouted(mux)})
	e.SetLatency(opts.Latency)
	return e
}

func (e *Emulator) authorized(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+e.opts.Token {
			fail(w, http.StatusUnauthorized, "unauthorized", "the token is not valid")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Servers are every server, as the API shows them now.
func (e *Emulator) Servers() []Server {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := make([]Server, 0, len(e.servers))
	for _, id := range slices.Sorted(maps.Keys(e.servers)) {
		out = append(out, *e.servers[id])
	}
	return out
}

// Seed adds a server behind the provider's back, as a user would in the
// console, and returns its id.
func (e *Emulator) Seed(name string, labels map[string]string) int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.add(name, "tiny", "plain", "north", labels, "running").ID
}

func (e *Emulator) add(name, size, image, region string, labels map[string]string, status string) *Server {
	e.next++
	s := &Server{ID: e.next, Name: name, Size: size, Image: image, Region: region, Status: status,
		IPv4: fmt.Sprintf("198.51.100.%d", e.next%250+1), Labels: labels, Created: time.Now().UTC()}
	if s.Labels == nil {
		s.Labels = map[string]string{}
	}
	e.servers[s.ID] = s
	return s
}

// read is what one read shows: a status in passing is shown once, then it
// settles. Called with e.mu held.
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
	per := 50
	if n := e.MaxPageSize(); n > 0 {
		per = n
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	var all []Server
	for _, id := range slices.Sorted(maps.Keys(e.servers)) {
		if s := e.servers[id]; !byLabel || s.Labels[k] == v {
			all = append(all, s.read())
		}
	}
	start := min(max(page-1, 0)*per, len(all))
	end, next := min(start+per, len(all)), 0
	if end < len(all) {
		next = max(page, 1) + 1
	}
	reply(w, 200, map[string]any{"servers": all[start:end], "next_page": next})
}

type writable struct {
	Name     *string           `json:"name"`
	Size     string            `json:"size"`
	Image    string            `json:"image"`
	Region   string            `json:"region"`
	Labels   map[string]string `json:"labels"`
	UserData string            `json:"user_data"`
	Action   string            `json:"action"`
}

func (e *Emulator) create(w http.ResponseWriter, r *http.Request) {
	var in writable
	if json.NewDecoder(r.Body).Decode(&in) != nil || in.Name == nil || *in.Name == "" {
		fail(w, http.StatusBadRequest, "invalid_input", "name, size, image and region are required")
		return
	}
	i := slices.IndexFunc(sizes, func(s size) bool { return s.Name == in.Size })
	switch {
	case i < 0:
		fail(w, http.StatusBadRequest, "invalid_size", fmt.Sprintf("size %q does not exist", in.Size))
	case !slices.Contains(sizes[i].Regions, in.Region):
		fail(w, http.StatusBadRequest, "invalid_region", fmt.Sprintf("size %s is not sold in region %q", in.Size, in.Region))
	case !slices.Contains(images, in.Image):
		fail(w, http.StatusBadRequest, "invalid_image", fmt.Sprintf("image %q does not exist", in.Image))
	default:
		e.mu.Lock()
		s := e.add(*in.Name, in.Size, in.Image, in.Region, in.Labels, "provisioning")
		s.settle = "running"
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
		s, ok := e.servers[id]
		if !ok {
			fail(w, http.StatusNotFound, "not_found", fmt.Sprintf("server %s not found", r.PathValue("id")))
			return
		}
		h(w, r, s)
	}
}

func (e *Emulator) get(w http.ResponseWriter, _ *http.Request, s *Server) {
	reply(w, 200, map[string]any{"server": s.read()})
}

func (e *Emulator) update(w http.ResponseWriter, r *http.Request, s *Server) {
	var in writable
	if json.NewDecoder(r.Body).Decode(&in) != nil {
		fail(w, http.StatusBadRequest, "invalid_input", "the body is not JSON")
		return
	}
	if in.Name != nil {
		s.Name = *in.Name
	}
	if in.Labels != nil {
		s.Labels = in.Labels
	}
	reply(w, 200, map[string]any{"server": *s})
}

func (e *Emulator) remove(w http.ResponseWriter, _ *http.Request, s *Server) {
	delete(e.servers, s.ID)
	w.WriteHeader(http.StatusNoContent)
}

func (e *Emulator) power(w http.ResponseWriter, r *http.Request, s *Server) {
	var in writable
	_ = json.NewDecoder(r.Body).Decode(&in)
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
