package robot

import (
	"crypto/rand"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/metal"
)

// server is one rented dedicated server.
type server struct {
	number    int
	name      string
	product   string
	dc        string
	status    string // "ready", "in process", or what Stage set
	paidUntil string
	machine   metal.Machine
	uuid      string
	ipv6Net   string
	resets    []string
	wol       bool

	cancelled          bool
	cancellationDate   string
	cancellationReason string
	cancelledNow       bool
	// goneAt is when the cancellation takes the server away; zero while
	// it stays.
	goneAt time.Time
	// orderedAt is when the order that delivered the server was placed;
	// zero for a seeded server, whose order is not the webservice's.
	orderedAt time.Time

	rescue     *rescue // armed rescue activation, nil when none
	lastRescue *rescue
	linux      *linuxInstall // active Linux installation, nil when none
	lastLinux  *linuxInstall
	// manualUntil is when a technician's manual reset ends.
	manualUntil time.Time
}

// maxServerName is the longest server name the emulator takes. Robot does
// not document its limit; 100 printable ASCII characters holds a claim
// mark after a 40-character name.
const maxServerName = 100

// seed is what a new server is made of.
type seed struct {
	product, dc, name string
	disks, resets     []string
	wol               bool
}

// addServerLocked rents a new server: a machine from the farm, the next
// number, a documentation IPv6 net.
func (e *Emulator) addServerLocked(sd seed) (*server, error) {
	number := e.lastNumber + 1
	uuid := newUUID()
	m, err := e.opts.Farm.Add(number, metal.Spec{Disks: slices.Clone(sd.disks), UUID: uuid})
	if err != nil {
		return nil, fmt.Errorf("robot emulator: the farm made no machine for server %d: %w", number, err)
	}
	e.lastNumber = number
	e.lastV6++
	s := &server{
		number: number, name: sd.name, product: sd.product, dc: sd.dc, status: "ready",
		paidUntil: e.now().AddDate(0, 1, 0).Format(time.DateOnly), machine: m, uuid: uuid,
		ipv6Net: fmt.Sprintf("2001:db8:%x::", e.lastV6), resets: sd.resets, wol: sd.wol,
	}
	e.servers[number] = s
	return s, nil
}

// removeLocked takes a server away at its cancellation date. Its machine
// stays with the farm, unreachable through the webservice.
func (e *Emulator) removeLocked(number int) {
	if s := e.servers[number]; s != nil && s.rescue != nil {
		s.rescue.stop()
	}
	delete(e.servers, number)
}

func newUUID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func (s *server) ip() string { return s.machine.Addr().String() }

// summary is the server as GET /server lists it.
func (s *server) summary() map[string]any {
	return map[string]any{
		"server_ip": s.ip(), "server_ipv6_net": s.ipv6Net, "server_number": s.number,
		"server_name": s.name, "product": s.product, "dc": s.dc, "traffic": "unlimited",
		"status": s.status, "cancelled": s.cancelled, "paid_until": s.paidUntil,
		"ip":     []string{s.ip()},
		"subnet": []map[string]string{{"ip": s.ipv6Net, "mask": "64"}},
	}
}

// detail is the server as GET and POST /server/{n} answer it.
func (s *server) detail(withStoragebox bool) map[string]any {
	d := s.summary()
	d["reset"], d["rescue"], d["vnc"], d["windows"], d["plesk"], d["cpanel"] = true, true, true, false, false, false
	d["wol"], d["hot_swap"] = s.wol, false
	if withStoragebox {
		d["linked_storagebox"] = nil
	}
	return d
}

// serverHandler serves a route of one server, the one its path names.
type serverHandler func(w http.ResponseWriter, r *http.Request, s *server)

// onServer serves a route of one server (/server/{n}, /reset/{n},
// /wol/{n}, /boot/{n}, …): the form read first, so a slow body holds no
// one else up, then under the lock once the server the path names is
// found (lookupLocked answers when it is not).
func (e *Emulator) onServer(h serverHandler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		e.mu.Lock()
		defer e.mu.Unlock()
		if s := e.lookupLocked(w, r); s != nil {
			h(w, r, s)
		}
	}
}

// lookupLocked finds the server the path names, or answers SERVER_NOT_FOUND.
func (e *Emulator) lookupLocked(w http.ResponseWriter, r *http.Request) *server {
	n, ok := serverNumber(r)
	s := e.servers[n]
	if !ok || s == nil {
		writeError(w, serverNotFound(n))
		return nil
	}
	return s
}

func (e *Emulator) sortedServersLocked() []*server {
	out := make([]*server, 0, len(e.servers))
	for _, s := range e.servers {
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b *server) int { return a.number - b.number })
	return out
}

// listServers answers every server, each in an envelope named key as
// show makes it (GET /server, GET /reset); with none, Robot answers 404
// SERVER_NOT_FOUND rather than an empty list.
func (e *Emulator) listServers(key string, show func(s *server) map[string]any) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		e.mu.Lock()
		defer e.mu.Unlock()
		if len(e.servers) == 0 {
			writeError(w, &apiError{status: http.StatusNotFound, code: codeServerNotFound, message: "No servers found"})
			return
		}
		out := []any{}
		for _, s := range e.sortedServersLocked() {
			out = append(out, map[string]any{key: show(s)})
		}
		writeJSON(w, http.StatusOK, out)
	}
}

func getServer(w http.ResponseWriter, _ *http.Request, s *server) {
	writeJSON(w, http.StatusOK, map[string]any{"server": s.detail(true)})
}

func renameServer(w http.ResponseWriter, r *http.Request, s *server) {
	names, ok := r.PostForm["server_name"]
	if !ok {
		writeError(w, missingInput("server_name"))
		return
	}
	name := names[0]
	if err := checkServerName(name); err != nil {
		writeError(w, err)
		return
	}
	s.name = name
	writeJSON(w, http.StatusOK, map[string]any{"server": s.detail(false)})
}

func checkServerName(name string) *apiError {
	if len(name) > maxServerName {
		return invalidInput(fmt.Sprintf("server_name is %d characters long; at most %d are allowed", len(name), maxServerName), "server_name")
	}
	for i := 0; i < len(name); i++ {
		if name[i] < 0x20 || name[i] > 0x7e {
			return invalidInput(fmt.Sprintf("server_name has a byte 0x%02x at %d; only printable ASCII is allowed", name[i], i), "server_name")
		}
	}
	return nil
}
