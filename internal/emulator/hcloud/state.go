package hcloud

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"time"
)

// Server is a snapshot of one emulated server, for tests to inspect and
// seed. Changing it changes nothing in the emulator.
type Server struct {
	ID     int64
	Name   string
	Status string
	Labels map[string]string
	// ServerType, Image and Location are catalog names ("cx22",
	// "ubuntu-24.04", "fsn1"); Image is empty for a server without one.
	ServerType string
	Image      string
	Location   string
	UserData   string
	// IPv4 is the public address, IPv6 the server's /64 network
	// ("2001:db8:0:1::/64"); empty when the server has none.
	IPv4    string
	IPv6    string
	Created time.Time
	// IgnoresACPI seeds a guest that ignores shutdown and reboot requests
	// (see SetIgnoresACPI).
	IgnoresACPI bool
	// Restarts counts the reboots the guest honoured and the resets, each
	// of a running server; ignored when seeding.
	Restarts int
	// RescueEnabled is the API's rescue_enabled (armed for the next boot);
	// InRescue says the server runs the rescue system it booted into.
	// Both are ignored when seeding.
	RescueEnabled, InRescue bool
}

func (s *server) snapshot() Server {
	out := Server{
		ID: s.id, Name: s.name, Status: s.status, Labels: maps.Clone(s.labels),
		ServerType: s.typ.wire.Name, Location: s.loc.wire.Name, UserData: s.userData, Created: s.created,
		IgnoresACPI: s.ignoresACPI, Restarts: s.restarts,
		RescueEnabled: s.rescueEnabled, InRescue: s.inRescue,
	}
	if out.Labels == nil {
		out.Labels = map[string]string{}
	}
	if s.image != nil {
		out.Image = s.image.name
	}
	if s.ipv4 != nil {
		out.IPv4 = s.ipv4.addr
	}
	if s.ipv6 != nil {
		out.IPv6 = s.ipv6.addr
	}
	return out
}

// Servers returns every server, including those being deleted, in id
// order. Reading it does not count as a poll of any action.
func (e *Emulator) Servers() []Server {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.advanceLocked(time.Now(), nil)
	out := make([]Server, 0, len(e.servers))
	for _, s := range e.servers {
		out = append(out, s.snapshot())
	}
	slices.SortFunc(out, func(a, b Server) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// Server returns one server, without polling its actions.
func (e *Emulator) Server(id int64) (Server, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.advanceLocked(time.Now(), nil)
	s, ok := e.servers[id]
	if !ok {
		return Server{}, false
	}
	return s.snapshot(), true
}

// AddServer seeds a server as if it had been created outside the
// provider, e.g. an unmarked server for import tests, and returns its id.
// Empty fields get defaults: status "running", type "cx22", image
// "ubuntu-24.04", location "fsn1", fresh addresses and the current time.
// ID is ignored. It panics on a taken name or an unknown type, image or
// location, since those are mistakes in the test.
func (e *Emulator) AddServer(seed Server) int64 {
	typ := e.cat.serverType(cmp.Or(seed.ServerType, "cx22"))
	loc := e.cat.location(cmp.Or(seed.Location, "fsn1"))
	if typ == nil || loc == nil {
		panic(fmt.Sprintf("hcloud emulator: AddServer: unknown server type %q or location %q", seed.ServerType, seed.Location))
	}
	img := e.cat.image(cmp.Or(seed.Image, "ubuntu-24.04"), typ.wire.Architecture)
	if img == nil {
		panic(fmt.Sprintf("hcloud emulator: AddServer: unknown image %q for %s", seed.Image, typ.wire.Architecture))
	}
	if seed.Name == "" || !validHostname(seed.Name) {
		panic(fmt.Sprintf("hcloud emulator: AddServer: invalid server name %q", seed.Name))
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.serverByNameLocked(seed.Name) != nil {
		panic(fmt.Sprintf("hcloud emulator: AddServer: server name %q is already used", seed.Name))
	}
	s := &server{
		id: e.nextIDLocked("server"), name: seed.Name, status: cmp.Or(seed.Status, "running"),
		labels: maps.Clone(seed.Labels), typ: typ, image: img, loc: loc, userData: seed.UserData,
		created: seed.Created, ignoresACPI: seed.IgnoresACPI,
	}
	if s.created.IsZero() {
		s.created = time.Now().UTC().Truncate(time.Second)
	}
	v4, v6 := seed.IPv4, seed.IPv6
	if v4 == "" {
		v4 = e.addrs.takeV4()
	}
	if v6 == "" {
		v6 = e.addrs.takeV6()
	}
	s.ipv4 = &primaryIP{id: e.nextIDLocked("primary_ip"), addr: v4}
	s.ipv6 = &primaryIP{id: e.nextIDLocked("primary_ip"), addr: v6}
	e.servers[s.id] = s
	return s.id
}

// SetServerStatus changes a server's status behind the API's back, as when
// someone powers it off in the console. Unknown ids are ignored.
func (e *Emulator) SetServerStatus(id int64, status string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if s, ok := e.servers[id]; ok {
		s.status = status
	}
}

// SetServerLabels replaces a server's labels behind the API's back.
// Unknown ids are ignored.
func (e *Emulator) SetServerLabels(id int64, labels map[string]string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if s, ok := e.servers[id]; ok {
		s.labels = maps.Clone(labels)
	}
}

// RemoveServer deletes a server behind the API's back: it is gone at once.
// Its running actions end: a delete in flight succeeds, anything else
// fails, as the API would report work on a server that vanished.
func (e *Emulator) RemoveServer(id int64) {
	e.mu.Lock()
	defer e.mu.Unlock()
	s, ok := e.servers[id]
	if !ok {
		return
	}
	now := time.Now()
	still := e.running[:0]
	for _, a := range e.running {
		if a.serverID != id {
			still = append(still, a)
			continue
		}
		a.finished, a.status = now, "success"
		if a.command != "delete_server" {
			a.status = "error"
			a.fail = &wireActionError{Code: "action_failed", Message: "server was deleted"}
		}
		if a.status == "success" {
			a.progress = 100
		}
	}
	clear(e.running[len(still):])
	e.running = still
	e.removeServerLocked(s)
}
