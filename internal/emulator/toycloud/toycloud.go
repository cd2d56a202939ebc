// Package toycloud emulates Toy Cloud, an imaginary cloud of servers with
// labels, one bearer token and regions: the worked example of a new
// backend (CONTRIBUTING.md, "Adding a backend"), kept in the tests. Its
// API, below BasePath, with "Authorization: Bearer TOKEN": GET /sizes
// ({"sizes": [{name, vcpus, memory_mib, regions, hourly}]});
// GET /servers (?page=N, ?label=KEY=VALUE; {"servers", "next_page"}),
// POST /servers; GET, PATCH and DELETE /servers/{id}; POST
// /servers/{id}/power {"action": "on"|"off"}; a server is {"server": {id,
// name, status, ipv4, labels, created, size, image, region}}. A new server reads
// "provisioning" once, a switched one "starting" or "stopping" once, so
// only a caller that reads again sees it settle. Faults, request counts
// and the control API (under ControlPrefix), the error body and the pages
// of a listing are internal/emulator/faults'; the servers, their ids,
// addresses, settling and listing are internal/emulator/fleet's.
package toycloud

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/fleet"
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
	fleet.Machine        // id, name, status, ipv4, labels, created
	Size          string `json:"size"`
	Image         string `json:"image"`
	Region        string `json:"region"`
}

var (
	sizes  = []size{{"tiny", 1, 512, []string{"north", "south"}, 0.004}, {"large", 4, 8192, []string{"north"}, 0.03}}
	images = []string{"plain", "plain-next"}
)

type size struct {
	Name      string   `json:"name"`
	VCPUs     int      `json:"vcpus"`
	MemoryMiB int      `json:"memory_mib"`
	Regions   []string `json:"regions"`
	Hourly    float64  `json:"hourly"`
}

// Emulator is the API, an http.Handler.
type Emulator struct {
	*faults.Middleware
	opts    Options
	servers *fleet.Fleet[Server, *Server]
}

// New is an emulator that accepts opts.Token.
func New(opts Options) *Emulator {
	mux := http.NewServeMux()
	e := &Emulator{opts: opts}
	auth := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+opts.Token {
			e.WriteError(w, http.StatusUnauthorized, "unauthorized", "the token is not valid")
			return
		}
		mux.ServeHTTP(w, r)
	})
	e.Middleware = faults.New(auth, faults.Config{APIPrefix: BasePath, ControlPrefix: ControlPrefix, Routed: faults.MuxRouted(mux)})
	e.servers = fleet.New[Server](e.Middleware, fleet.Config{})
	mux.HandleFunc("GET /v1/sizes", func(w http.ResponseWriter, _ *http.Request) { faults.WriteJSON(w, 200, map[string]any{"sizes": sizes}) })
	mux.HandleFunc("GET /v1/servers", e.servers.List)
	mux.HandleFunc("POST /v1/servers", e.create)
	mux.HandleFunc("GET /v1/servers/{id}", e.servers.Item(e.servers.Show))
	mux.HandleFunc("PATCH /v1/servers/{id}", e.servers.Item(e.servers.Patch))
	mux.HandleFunc("DELETE /v1/servers/{id}", e.servers.Item(e.servers.Remove))
	mux.HandleFunc("POST /v1/servers/{id}/power", e.servers.Item(e.servers.PowerAction))
	e.SetLatency(opts.Latency)
	return e
}

// Servers are every server, as the API shows them now.
func (e *Emulator) Servers() []Server { return e.servers.Servers() }

// Seed adds a running server behind the provider's back, as a user would
// in the console, and returns its id.
func (e *Emulator) Seed(name string, labels map[string]string) int {
	return e.servers.Seed(Server{Machine: fleet.Machine{Name: name, Labels: labels}, Size: "tiny", Image: "plain", Region: "north"}).ID
}

// create answers POST /servers; a body that does not decode is left
// empty, for the checks to refuse.
func (e *Emulator) create(w http.ResponseWriter, r *http.Request) {
	var in struct {
		Name   *string           `json:"name"`
		Size   string            `json:"size"`
		Image  string            `json:"image"`
		Region string            `json:"region"`
		Labels map[string]string `json:"labels"`
	}
	_ = json.NewDecoder(r.Body).Decode(&in)
	i := slices.IndexFunc(sizes, func(s size) bool { return s.Name == in.Size })
	switch {
	case in.Name == nil || *in.Name == "":
		e.WriteError(w, http.StatusBadRequest, "invalid_input", "a server needs a name")
	case i < 0:
		e.WriteError(w, http.StatusBadRequest, "invalid_size", fmt.Sprintf("size %q does not exist", in.Size))
	case !slices.Contains(sizes[i].Regions, in.Region):
		e.WriteError(w, http.StatusBadRequest, "invalid_region", fmt.Sprintf("size %s is not sold in region %q", in.Size, in.Region))
	case !slices.Contains(images, in.Image):
		e.WriteError(w, http.StatusBadRequest, "invalid_image", fmt.Sprintf("image %q does not exist", in.Image))
	default:
		s := Server{Machine: fleet.Machine{Name: *in.Name, Labels: in.Labels}, Size: in.Size, Image: in.Image, Region: in.Region}
		faults.WriteJSON(w, http.StatusCreated, map[string]any{"server": e.servers.Create(s)})
	}
}
