// Package proxmox is a stateful, in-memory emulator of the Proxmox VE API
// (/api2/json) for the QEMU side of a cluster: nodes and their status,
// cluster status and resources, the next free VMID, VMs and templates with
// their configs, each node's VM list, pools, volume info, cloud-init
// regeneration, clones, power actions and deletes as tasks (UPIDs, task
// status and log), disk resizes, the guest agent's network-get-interfaces,
// storages and their content, behind PVEAPIToken auth and the faults
// middleware, over TLS with a self-signed certificate made at start.
//
// What makes PVE hard for a client is reproduced on purpose: a clone
// holds the template's lock file and the new VM's config lock "clone" for
// CloneDuration, a contended lock file waits LockTimeout and then fails
// with PVE's "can't lock file … - got timeout", two clones to one VMID
// race and exactly one wins, tasks run on when their client leaves, and
// the guest agent answers only some time after boot, or never.
//
// Every request is checked against PVE's own API schema before its
// handler runs (schema.go, with pveschema.json cut from pve-apidata.js by
// tools/pveschema): undefined or missing parameters, types, bounds,
// enumerations, patterns, named formats and property strings with their
// default keys (propstring.go, formats.go), as pveproxy checks them; a
// config write stores every key the schema defines, drives and NICs as
// PVE prints them. Empty path fragments are dropped, as PVE's router drops
// them. What bpg/terraform-provider-proxmox sends in its everyday flows is
// replayed from testdata/bpg-transcript.jsonl (scripts/bpg-check.sh
// records it).
//
// Errors are answered as pveproxy answers them: the message in the HTTP
// reason phrase ("HTTP/1.1 500 VM 100 is locked (clone)") and a body
// {"data":null}, with "errors" by parameter for a 400.
//
// Snippets (cloud-init user data) reach a node over SFTP: each node runs
// an SSH server on its own loopback address with the sftp subsystem over
// storage local (see nodes_ssh.go and snippets_fs.go).
//
// It imports the standard library, x/crypto/ssh, pkg/sftp and
// internal/emulator/clock, faults and hooks; never the provider's adapters.
package proxmox

import (
	"crypto/subtle"
	"crypto/tls"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/clock"
	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
)

// APIPrefix is where PVE serves its JSON API.
const APIPrefix = "/api2/json"

// ControlPrefix is where the emulator's control API lives.
const ControlPrefix = "/_emulator/proxmox"

// Clock is what tasks and boots wait on; it has the shape of the adapter's
// injected clock, so a test's fake clock can step the emulator too.
type Clock = clock.Clock

// NodeSeed is a cluster node.
type NodeSeed struct {
	Name      string
	Cores     int
	MemoryMiB int
	// Online false makes the node unreachable from the start: its VMs are
	// listed with status unknown, requests routed to it answer 595.
	Online bool
}

// TemplateSeed is a VM template to clone from.
type TemplateSeed struct {
	VMID    int
	Node    string
	Name    string
	DiskGiB int
}

// Defaults of Options.
const (
	DefaultCloneDuration   = 200 * time.Millisecond
	DefaultLockTimeout     = time.Second
	DefaultBootDuration    = 300 * time.Millisecond
	DefaultDestroyDuration = 50 * time.Millisecond
)

// Options configure an Emulator. The zero value is a usable two-node
// cluster with one template and no auth.
type Options struct {
	// Tokens are the API tokens accepted, "USER@REALM!TOKENID" → secret.
	// Empty accepts every request, with or without a token.
	Tokens map[string]string
	// Nodes default to pve1 and pve2 (16 cores, 64 GiB, online).
	Nodes []NodeSeed
	// Templates default to 9000 ubuntu-24.04-cloud on the first node,
	// 10 GiB, with a cloud-init drive and the agent enabled. A nil slice
	// gets the default; an empty non-nil slice none.
	Templates []TemplateSeed
	// CloneDuration is how long a clone task runs and holds its locks.
	CloneDuration time.Duration
	// LockTimeout is how long a contended lock file is waited for before
	// PVE's "can't lock file … - got timeout".
	LockTimeout time.Duration
	// BootDuration is how long after a start the guest agent answers.
	BootDuration time.Duration
	// DestroyDuration is how long a delete task keeps the VM listed with
	// lock "destroyed".
	DestroyDuration time.Duration
	// Latency delays every API request (the faults' delay_if_connected).
	Latency time.Duration
	// Clock times tasks and boots; the wall clock if nil.
	Clock Clock
	// SSHPort is the port the nodes' SSH servers share under NewServer; 0
	// picks a free one.
	SSHPort int
}

// Emulator is the PVE API in memory. It is safe for concurrent use.
type Emulator struct {
	opts   Options
	clock  Clock
	faults *faults.Middleware
	mux    *http.ServeMux
	locks  *lockFiles

	// authorized counts API requests that carried an Authorization header.
	authorized atomic.Int64

	mu      sync.Mutex
	nodes   []*node
	vms     map[int]*vm
	tasks   map[string]*task
	pidSeq  int
	ipSeq   int
	holdCh  chan struct{} // non-nil while clone tasks are held
	held    int           // clone tasks waiting on holdCh
	agent   agentFault
	failCln string // exit status of the next clone task, "" for OK
	ssh     *sshNodes
	stopped chan struct{}
	stopOne sync.Once

	// fingerprint is the certificate's SHA-256 in PVE's hex-colon form,
	// "" until NewServer made one; cert is the certificate it is of,
	// handed to every new TLS handshake.
	fingerprint string
	cert        *tls.Certificate
}

// New returns an emulator with its nodes and templates and no VMs.
func New(opts Options) *Emulator {
	if opts.CloneDuration <= 0 {
		opts.CloneDuration = DefaultCloneDuration
	}
	if opts.LockTimeout <= 0 {
		opts.LockTimeout = DefaultLockTimeout
	}
	if opts.BootDuration <= 0 {
		opts.BootDuration = DefaultBootDuration
	}
	if opts.DestroyDuration <= 0 {
		opts.DestroyDuration = DefaultDestroyDuration
	}
	if opts.Clock == nil {
		opts.Clock = clock.Wall{}
	}
	if len(opts.Nodes) == 0 {
		opts.Nodes = []NodeSeed{
			{Name: "pve1", Cores: 16, MemoryMiB: 65536, Online: true},
			{Name: "pve2", Cores: 16, MemoryMiB: 65536, Online: true},
		}
	}
	if opts.Templates == nil {
		opts.Templates = []TemplateSeed{{VMID: 9000, Node: opts.Nodes[0].Name, Name: "ubuntu-24.04-cloud", DiskGiB: 10}}
	}
	e := &Emulator{opts: opts, clock: opts.Clock, vms: map[int]*vm{}, tasks: map[string]*task{}, pidSeq: 0x1000, stopped: make(chan struct{})}
	e.locks = newLockFiles(opts.LockTimeout, opts.Clock)
	for _, n := range opts.Nodes {
		e.nodes = append(e.nodes, &node{NodeSeed: n, storage: map[string][]byte{}})
	}
	for _, t := range opts.Templates {
		e.addTemplateLocked(t)
	}
	e.mux = http.NewServeMux()
	e.routes()
	e.faults = faults.New(http.HandlerFunc(e.serveAPI), faults.Config{
		APIPrefix: APIPrefix, ControlPrefix: ControlPrefix, ErrorBody: errorBody,
		Route: Route, Now: opts.Clock.Now, Control: e.control(), Routed: faults.MuxRouted(e.mux),
	})
	e.faults.SetLatency(opts.Latency)
	return e
}

func (e *Emulator) routes() {
	for pattern, h := range e.handlers() {
		method, path, _ := strings.Cut(pattern, " ")
		e.mux.HandleFunc(method+" "+APIPrefix+path, checked(pattern, h))
	}
}

// handlers are the API's routes, keyed as PVE's schema names them.
func (e *Emulator) handlers() map[string]http.HandlerFunc {
	const vm = "/nodes/{node}/qemu/{vmid}"
	return map[string]http.HandlerFunc{
		"GET /version":             e.version,
		"GET /nodes":               e.listNodes,
		"GET /nodes/{node}/status": e.onNode(e.nodeStatus),
		"GET /nodes/{node}/qemu":   e.onNode(e.listVMs),
		"GET /pools":               e.listPools,
		"PUT " + vm + "/cloudinit": e.onVM(true, regenerateCloudinit),
		"GET /nodes/{node}/storage/{storage}/content/{volume}": e.onNodeStorage(e.volumeInfo),
		"GET /cluster/status":                         e.clusterStatus,
		"GET /cluster/resources":                      e.clusterResources,
		"GET /cluster/nextid":                         e.nextID,
		"POST " + vm + "/clone":                       e.clone,
		"GET " + vm + "/config":                       e.onVM(false, getConfig),
		"POST " + vm + "/config":                      e.setConfig(true),
		"PUT " + vm + "/config":                       e.setConfig(false),
		"PUT " + vm + "/resize":                       e.onVM(false, e.resize),
		"GET " + vm + "/status/current":               e.onVM(false, e.statusCurrent),
		"POST " + vm + "/status/{action}":             e.powerAction,
		"GET " + vm + "/agent/network-get-interfaces": e.agentInterfaces,
		"DELETE " + vm:                                e.onVM(true, e.destroy),
		"GET /nodes/{node}/tasks/{upid}/status":       e.taskStatus,
		"GET /nodes/{node}/tasks/{upid}/log":          e.taskLog,
		"GET /storage/{storage}":                      e.getStorage,
		"GET /nodes/{node}/storage/{storage}/content": e.onNodeStorage(e.storageContent),
	}
}

// Route names a request path's route for the request counts and fault
// rules, with PVE's own placeholders: "/nodes/pve1/qemu/100/config" reads
// "/nodes/{node}/qemu/{vmid}/config", a task's path
// "/nodes/{node}/tasks/{upid}/status", a storage "/storage/{storage}", a
// volume "/nodes/{node}/storage/{storage}/content/{volume}".
func Route(path string) string {
	segs := strings.Split(path, "/")
	for i := 1; i < len(segs); i++ {
		if segs[i-1] == "" || segs[i] == "" {
			continue
		}
		switch segs[i-1] {
		case "nodes":
			segs[i] = "{node}"
		case "qemu":
			segs[i] = "{vmid}"
		case "tasks":
			segs[i] = "{upid}"
		case "storage":
			segs[i] = "{storage}"
		case "content":
			if i >= 3 && segs[i-3] == "storage" {
				segs[i] = "{volume}"
			}
		}
	}
	return strings.Join(segs, "/")
}

// ServeHTTP serves the API under /api2/json and the control API under
// ControlPrefix. Errors get their message into the reason phrase here, so
// scripted failures read like the emulator's own.
func (e *Emulator) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !strings.HasPrefix(r.URL.Path, APIPrefix+"/") {
		e.faults.ServeHTTP(w, r)
		return
	}
	dropEmptySegments(r.URL)
	if r.Header.Get("Authorization") != "" {
		e.authorized.Add(1)
	}
	pw := &phraseWriter{ResponseWriter: w}
	defer pw.finish()
	e.faults.ServeHTTP(pw, r)
}

func (e *Emulator) serveAPI(w http.ResponseWriter, r *http.Request) {
	if !strings.HasPrefix(r.URL.Path, APIPrefix+"/") {
		writeError(w, failf(http.StatusNotImplemented, "Method '%s %s' not implemented", r.Method, r.URL.Path))
		return
	}
	if err := e.authenticate(r); err != nil {
		writeError(w, err)
		return
	}
	if _, pattern := e.mux.Handler(r); pattern == "" {
		writeError(w, failf(http.StatusNotImplemented, "Method '%s %s' not implemented", r.Method, strings.TrimPrefix(r.URL.Path, APIPrefix)))
		return
	}
	if err := parseParams(r); err != nil {
		writeError(w, err)
		return
	}
	e.mux.ServeHTTP(w, r)
}

// dropEmptySegments removes the empty fragments of a path ("//", a
// trailing "/"), as PVE's router does when it splits a path, so
// "DELETE /nodes/pve1/qemu/100/" is "DELETE /nodes/pve1/qemu/100". It
// works on the escaped path, so an escaped "/" inside a volume id stays
// one segment.
func dropEmptySegments(u *url.URL) {
	escaped := u.EscapedPath()
	segs := strings.FieldsFunc(escaped, func(r rune) bool { return r == '/' })
	clean := "/" + strings.Join(segs, "/")
	if clean == escaped {
		return
	}
	path, err := url.PathUnescape(clean)
	if err != nil {
		return
	}
	u.Path, u.RawPath = path, ""
	if path != clean {
		u.RawPath = clean
	}
}

// authenticate checks "Authorization: PVEAPIToken=USER@REALM!ID=SECRET".
func (e *Emulator) authenticate(r *http.Request) *apiError {
	if len(e.opts.Tokens) == 0 {
		return nil
	}
	h := r.Header.Get("Authorization")
	if h == "" {
		return failf(http.StatusUnauthorized, "No ticket")
	}
	value, ok := strings.CutPrefix(h, "PVEAPIToken=")
	if !ok {
		return failf(http.StatusUnauthorized, "authentication failure")
	}
	id, secret, ok := strings.Cut(value, "=")
	want, known := e.opts.Tokens[id]
	if !ok || !known || subtle.ConstantTimeCompare([]byte(secret), []byte(want)) != 1 {
		return failf(http.StatusUnauthorized, "authentication failure")
	}
	return nil
}

// Authorized counts the API requests that carried an Authorization
// header, whatever became of them: a client that must not send its token
// (a pinned certificate that did not match) leaves it at zero.
func (e *Emulator) Authorized() int { return int(e.authorized.Load()) }

// Faults returns the fault middleware.
func (e *Emulator) Faults() *faults.Middleware { return e.faults }

// Stats returns request counts keyed "METHOD /route", e.g.
// "POST /nodes/{node}/qemu/{vmid}/clone"; control routes are not counted.
func (e *Emulator) Stats() map[string]int { return e.faults.Stats() }

// ResetStats sets the request counts back to zero.
func (e *Emulator) ResetStats() { e.faults.Reset() }
