package hcloud

import (
	"net"
	"slices"
	"strconv"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/marks"
)

// The marks written onto every machine this adapter creates or adopts, as
// labels in the one spelling of backends with labels (marks.Default). The
// claim names the Terraform state that holds the server (adapter.NewClaim);
// the unconfirmed label is on a server whose claim a create wrote and no
// refresh of its state has confirmed yet (adapter.Adoptable), and its
// absence means confirmed, which is also what a server marked before the
// label existed means.
var labelMarks = marks.Default()

// markOf reads our marks from a server's labels.
func markOf(s *hcloud.Server) (managed bool, m adapter.Mark) {
	managed, m, _ = labelMarks.Read(s.Labels)
	return managed, m
}

// toMachine maps a server onto the contract's Machine.
func toMachine(s *hcloud.Server) adapter.Machine {
	managed, mark, user := labelMarks.Read(s.Labels)
	m := adapter.Machine{
		ID:        strconv.FormatInt(s.ID, 10),
		Name:      s.Name,
		RawState:  string(s.Status),
		CreatedAt: s.Created,
		Labels:    user,
	}
	m.SetMark(managed, mark)
	if s.ServerType != nil {
		m.OfferID = s.ServerType.Name
	}
	if s.Image != nil {
		m.Image = s.Image.Name
		if m.Image == "" && s.Image.ID != 0 {
			// Snapshots and backups have no name; their id is what a
			// create would name them by.
			m.Image = strconv.FormatInt(s.Image.ID, 10)
		}
	}
	if s.Location != nil {
		m.Location = s.Location.Name
	}
	if !s.PublicNet.IPv4.IsUnspecified() {
		m.IPv4 = s.PublicNet.IPv4.IP.String()
	}
	if !s.PublicNet.IPv6.IsUnspecified() {
		m.IPv6 = firstHost(s.PublicNet.IPv6.IP)
	}
	m.State = stateOf(s.Status, m.HasAddress())
	m.Actions = actionsOf(m.State, s.Locked, managed)
	return m
}

// stateOf maps the API's status conservatively: a machine counts as running
// only when it is running and has an address, and stopping counts as running
// (with an address, else pending, like running without one) until it is
// off, so nothing is taken as stopped before it is.
func stateOf(status hcloud.ServerStatus, hasAddress bool) adapter.State {
	switch status {
	case hcloud.ServerStatusInitializing, hcloud.ServerStatusStarting,
		hcloud.ServerStatusMigrating, hcloud.ServerStatusRebuilding:
		return adapter.StatePending
	case hcloud.ServerStatusRunning:
		if hasAddress {
			return adapter.StateRunning
		}
		return adapter.StatePending
	case hcloud.ServerStatusStopping:
		if hasAddress {
			return adapter.StateRunning
		}
		return adapter.StatePending
	case hcloud.ServerStatusOff:
		return adapter.StateStopped
	case hcloud.ServerStatusDeleting:
		return adapter.StateDeleting
	}
	return adapter.StateUnknown
}

// idRule is what a server id must be, which parseID's refusal names as the
// rule does.
const idRule = "a positive number: the server's id, as the Hetzner Cloud console and `hcloud server list` show it"

// parseID reads a machine id, which for Hetzner Cloud is the server's number.
func parseID(id string) (int64, error) {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil || n <= 0 {
		return 0, adapter.MalformedID(id, "a Hetzner Cloud server id", idRule)
	}
	return n, nil
}

// describe names a server for messages: its id and name.
func describe(s *hcloud.Server) string {
	return "server " + strconv.FormatInt(s.ID, 10) + " (" + strconv.Quote(s.Name) + ")"
}

// describeMachine names a machine for messages, as describe names a server.
func describeMachine(m adapter.Machine) string {
	return "server " + m.ID + " (" + strconv.Quote(m.Name) + ")"
}

// firstHost is the ::1 address of a server's /64: the API reports the
// network, and the server itself answers on its first address, which is what
// SSH and DNS records want.
func firstHost(network net.IP) string {
	ip := slices.Clone(network.To16())
	if ip == nil {
		return ""
	}
	ip[15] |= 1
	return ip.String()
}
