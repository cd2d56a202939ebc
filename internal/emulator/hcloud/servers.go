package hcloud

import (
	"cmp"
	"maps"
	"net/http"
	"slices"
	"time"
)

// server is one server in the emulated project.
type server struct {
	id       int64
	name     string
	status   string
	labels   map[string]string
	typ      *serverType
	image    *image // nil for a server seeded without one
	loc      *location
	userData string
	created  time.Time
	ipv4     *primaryIP
	ipv6     *primaryIP
	sshKeys  []int64
	// busy counts running actions; the API reports the server locked and
	// refuses further power actions meanwhile.
	busy int
	// deleting is the running delete action, if any.
	deleting *action
	// ignoresACPI makes the guest ignore shutdown and reboot requests (see
	// SetIgnoresACPI); restarts counts the reboots and resets it went
	// through while running.
	ignoresACPI bool
	restarts    int
	// rescueEnabled is the API's rescue_enabled: rescue is armed for the
	// next boot, with the SSH keys rescueKeys. inRescue says the server
	// runs the rescue system it booted into (see rescue.go).
	rescueEnabled bool
	rescueKeys    []int64
	inRescue      bool
	// bootReads counts the reads left before the guest's boot that a
	// finished action began is done (Options.BootReads).
	bootReads int
}

type primaryIP struct {
	id   int64
	addr string
}

var serverStatuses = []string{"running", "initializing", "starting", "stopping", "off", "deleting", "migrating", "rebuilding", "unknown"}

func (s *server) wire() wireServer {
	w := wireServer{
		ID: s.id, Name: s.name, Status: s.status, Created: s.created.Format(time.RFC3339),
		PublicNet:  wirePublicNet{FloatingIPs: []int64{}, Firewalls: []struct{}{}},
		PrivateNet: []struct{}{},
		ServerType: &s.typ.wire, Location: &s.loc.wire, Datacenter: &s.loc.dc.wire,
		Locked: s.busy > 0, Protection: wireServerProtection{}, RescueEnabled: s.rescueEnabled,
		Labels:  maps.Clone(s.labels),
		Volumes: []int64{}, LoadBalancers: []int64{},
		PrimaryDiskSize: s.typ.wire.Disk,
		IncludedTraffic: s.includedTraffic(),
	}
	if w.Labels == nil {
		w.Labels = map[string]string{}
	}
	var zero int64
	w.OutgoingTraffic, w.IngoingTraffic = &zero, &zero
	if s.image != nil {
		w.Image = &s.image.wire
	}
	if s.ipv4 != nil {
		w.PublicNet.IPv4 = &wireIPv4{ID: s.ipv4.id, IP: s.ipv4.addr, DNSPtr: reverseDNS(s.ipv4.addr)}
	}
	if s.ipv6 != nil {
		w.PublicNet.IPv6 = &wireIPv6{ID: s.ipv6.id, IP: s.ipv6.addr, DNSPtr: []struct{}{}}
	}
	return w
}

func (s *server) includedTraffic() int64 {
	for _, p := range s.typ.wire.Prices {
		if p.Location == s.loc.wire.Name {
			return p.IncludedTraffic
		}
	}
	return 0
}

var serverSortKeys = sortKeys[*server]{
	"id":      func(a, b *server) int { return cmp.Compare(a.id, b.id) },
	"name":    func(a, b *server) int { return cmp.Compare(a.name, b.name) },
	"created": func(a, b *server) int { return a.created.Compare(b.created) },
}

func observeAll(*action) bool { return true }

func (e *Emulator) listServers(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	l, err := readListing(q, e.pageSize(), serverStatuses, serverSortKeys, true)
	if err != nil {
		writeError(w, err)
		return
	}
	name := q.Get("name")

	e.mu.Lock()
	// A listing is a read of every server, so it polls every running action.
	e.advanceLocked(time.Now(), observeAll)
	var found []*server
	for _, s := range e.servers {
		// Only a server the listing returns is read.
		if (name == "" || s.name == name) && l.sel.matches(s.labels) &&
			(len(q["status"]) == 0 || slices.Contains(q["status"], s.status)) {
			countBootReadLocked(s)
			found = append(found, s)
		}
	}
	out, meta := wirePage(found, l, (*server).wire)
	e.mu.Unlock()
	writePage(w, r, "servers", out, meta)
}

// lookupServerLocked returns the server the path names. Reading a server
// (GET) counts as a poll of its running actions; writes do not, so a write
// right after another still finds the server locked.
func (e *Emulator) lookupServerLocked(r *http.Request) (*server, *apiError) {
	id, ok := pathID(r, "id")
	var observe func(*action) bool
	if r.Method == http.MethodGet {
		observe = func(a *action) bool { return a.serverID == id }
	}
	e.advanceLocked(time.Now(), observe)
	s, exists := e.servers[id]
	if !ok || !exists {
		return nil, notFound("server", id)
	}
	if r.Method == http.MethodGet {
		countBootReadLocked(s)
	}
	return s, nil
}

func (e *Emulator) getServer(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	s, err := e.lookupServerLocked(r)
	var out wireServer
	if err == nil {
		out = s.wire()
	}
	e.mu.Unlock()
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"server": out})
}

func (e *Emulator) updateServer(w http.ResponseWriter, r *http.Request) {
	req, bad := readUpdate(r)
	if bad == nil && req.Name != nil && *req.Name != "" && !validHostname(*req.Name) {
		bad = invalidFields(fieldError{Name: "name", Messages: []string{invalidHostname}})
	}
	if bad != nil {
		writeError(w, bad)
		return
	}
	withLocked(e, w, r, e.lookupServerLocked, func(s *server) {
		taken := func(name string) bool { return e.serverByNameLocked(name) != nil }
		if err := req.apply(&s.name, &s.labels, taken, "server name is already used"); err != nil {
			writeError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, map[string]any{"server": s.wire()})
	})
}

// deleteServer starts a delete_server action. The server answers with
// status "deleting" until the action finishes and 404 afterwards. Deleting
// a server that is already being deleted returns the running action again,
// so a client retrying after a lost answer is not punished.
func (e *Emulator) deleteServer(w http.ResponseWriter, r *http.Request) {
	withLocked(e, w, r, e.lookupServerLocked, func(s *server) {
		if s.deleting == nil {
			now := time.Now()
			a := e.startActionLocked(s, "delete_server", now)
			a.onFailure = s.status
			s.deleting = a
			s.status = "deleting"
			e.advanceLocked(now, nil)
		}
		writeJSON(w, http.StatusOK, map[string]any{"action": s.deleting.wire()})
	})
}

func (e *Emulator) serverByNameLocked(name string) *server {
	for _, s := range e.servers {
		if s.name == name {
			return s
		}
	}
	return nil
}

// removeServerLocked drops s and gives its addresses back.
func (e *Emulator) removeServerLocked(s *server) {
	delete(e.servers, s.id)
	if s.ipv4 != nil {
		e.addrs.releaseV4(s.ipv4.addr)
	}
}
