package hcloud

import (
	"maps"
	"net"
	"slices"
	"strconv"
	"strings"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// The marks written onto every machine this adapter creates or adopts.
const (
	labelPrefix      = "compute.seedcompute.io/"
	labelManaged     = labelPrefix + "managed"
	labelKey         = labelPrefix + "key"
	labelFingerprint = labelPrefix + "fingerprint"
	// labelClaim names the Terraform state that holds the server; see
	// adapter.NewClaim.
	labelClaim = labelPrefix + "claim"
	// labelUnconfirmed is on a server whose claim a create wrote and no
	// refresh of its state has confirmed yet (see adapter.Adoptable); its
	// absence means confirmed, which is also what a server marked before
	// the label existed means.
	labelUnconfirmed = labelPrefix + "unconfirmed"
)

// managedSelector selects the machines this adapter manages.
const managedSelector = labelManaged + "=true"

func keySelector(key string) string { return labelKey + "=" + key }

// withMarks returns the user's labels plus our marks, as the API stores them.
func withMarks(user map[string]string, m adapter.Mark) map[string]string {
	out := make(map[string]string, len(user)+4)
	maps.Copy(out, user)
	out[labelManaged] = "true"
	out[labelKey] = m.Key
	out[labelFingerprint] = m.Fingerprint
	if m.Claim != "" {
		out[labelClaim] = m.Claim
	}
	if m.Unconfirmed {
		out[labelUnconfirmed] = "true"
	}
	return out
}

// checkUserLabels refuses labels that would forge or remove our marks.
func checkUserLabels(labels map[string]string) error {
	for k := range labels {
		if strings.HasPrefix(k, labelPrefix) {
			return adapter.Errorf(adapter.InvalidInput, "label %q uses the prefix %s, which is reserved for the provider's own marks; rename the label", k, labelPrefix).WithField("labels")
		}
	}
	return nil
}

// markOf reads our marks from a server's labels.
func markOf(s *hcloud.Server) (managed bool, m adapter.Mark) {
	return s.Labels[labelManaged] == "true", adapter.Mark{Key: s.Labels[labelKey], Fingerprint: s.Labels[labelFingerprint], Claim: s.Labels[labelClaim],
		Unconfirmed: s.Labels[labelUnconfirmed] == "true"}
}

// toMachine maps a server onto the contract's Machine.
func toMachine(s *hcloud.Server) adapter.Machine {
	managed, mark := markOf(s)
	m := adapter.Machine{
		ID:          strconv.FormatInt(s.ID, 10),
		Name:        s.Name,
		RawState:    string(s.Status),
		CreatedAt:   s.Created,
		Labels:      map[string]string{},
		Managed:     managed,
		Key:         mark.Key,
		Fingerprint: mark.Fingerprint,
		Claim:       mark.Claim,
		Unconfirmed: mark.Unconfirmed,
	}
	for k, v := range s.Labels {
		if !strings.HasPrefix(k, labelPrefix) {
			m.Labels[k] = v
		}
	}
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

// parseID reads a machine id, which for Hetzner Cloud is the server's number.
func parseID(id string) (int64, error) {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil || n <= 0 {
		return 0, adapter.Errorf(adapter.InvalidInput, "%s is not a Hetzner Cloud server id; server ids are positive numbers, as shown in the console and by `hcloud server list`", adapter.Quoted(adapter.Redacted(id))).WithField("id")
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
