package proxmox

import (
	"context"
	"errors"
	"net/http"
	"net/netip"
	"strconv"
	"sync"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter/rest"
)

// addresses are a guest's first global IPv4 and IPv6; without either, why
// says in a few words what the agent did instead ("not running"), for the
// raw state: a create waiting for an address shows the reason in its log.
type addresses struct{ v4, v6, why string }

// Why a running VM has no address, as the raw state shows it.
const (
	agentNotRunning    = "not running"
	agentNotConfigured = "not configured"
	agentNoGlobal      = "no global address yet"
	agentReadFailed    = "read failed"
)

// agentSilent is the reason of an agent that did not answer in time.
func (a *account) agentSilent() string { return "no answer within " + a.agentTimeout.String() }

// agentWhy words an agent request's failure. PVE says "QEMU guest agent is
// not running" while the guest boots or lacks qemu-guest-agent, and "No
// QEMU guest agent configured" when the VM's config has no agent: 1.
func (a *account) agentWhy(err error) string {
	var api *apiError
	switch {
	case errors.Is(err, rest.ErrRequestBound):
		return a.agentSilent()
	case !errors.As(err, &api):
		return agentReadFailed
	case has(api.Message, []string{"guest agent configured"}):
		return agentNotConfigured
	case has(api.Message, []string{"guest agent is not running"}):
		return agentNotRunning
	}
	return agentReadFailed
}

// agentMemory remembers the VMs whose agent did not answer, so that a
// process asks each of them once per quiet period: a refresh of ten VMs
// with a hung agent costs ten bounded requests, not ten per read.
type agentMemory struct {
	mu     sync.Mutex
	quiet  time.Duration
	silent map[int]time.Time
}

func (m *agentMemory) skip(vmid int, now time.Time) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	at, ok := m.silent[vmid]
	return ok && now.Sub(at) < m.quiet
}

func (m *agentMemory) note(vmid int, now time.Time, answered bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.silent == nil {
		m.silent = map[int]time.Time{}
	}
	if answered {
		delete(m.silent, vmid)
	} else {
		m.silent[vmid] = now
	}
}

// agentParallel bounds the agent requests of one listing in flight at once.
const agentParallel = 16

// iface is one interface of network-get-interfaces.
type iface struct {
	Name      string `json:"name"`
	Addresses []struct {
		Type    string `json:"ip-address-type"`
		Address string `json:"ip-address"`
	} `json:"ip-addresses"`
}

// addressesOf asks the guest agent once, bounded by agent_timeout. Any
// failure (a timeout, "QEMU guest agent is not running", no agent
// configured) is no address: the VM reads as pending, never as an error,
// and the read is not repeated.
func (a *account) addressesOf(ctx context.Context, node string, vmid int) addresses {
	if a.agents.skip(vmid, a.clock.Now()) {
		return addresses{why: a.agentSilent()}
	}
	var out struct {
		Result []iface `json:"result"`
	}
	err := a.c.Do(ctx, rest.Call{Method: http.MethodGet, Route: "/nodes/{node}/qemu/{vmid}/agent/network-get-interfaces",
		Args: []string{node, strconv.Itoa(vmid)}, Timeout: a.agentTimeout}, &out)
	if err != nil {
		// Only silence earns the quiet period: an agent that answers
		// "not running" (a guest still booting) is asked again next read.
		if ctx.Err() == nil && errors.Is(err, rest.ErrRequestBound) {
			a.agents.note(vmid, a.clock.Now(), false)
		}
		return addresses{why: a.agentWhy(err)}
	}
	a.agents.note(vmid, a.clock.Now(), true)
	return pickAddresses(out.Result)
}

// pickAddresses is the first global IPv4 (not 127/8, not 169.254/16, not
// the broadcast address) and the first global IPv6 (not ::1, not
// fe80::/10), without a zone, of any interface but lo;
// neither is a guest whose DHCP or SLAAC has not answered yet.
func pickAddresses(ifs []iface) addresses {
	var ad addresses
	for _, i := range ifs {
		if i.Name == "lo" {
			continue
		}
		for _, x := range i.Addresses {
			ip, err := netip.ParseAddr(x.Address)
			if err != nil {
				continue
			}
			// A zone means something only beside a link-local address,
			// and an address that kept one would not parse where it is
			// used. It goes first: netip takes "::%eth0" for global.
			// IsGlobalUnicast then leaves out loopback, link-local,
			// multicast, unspecified and the IPv4 broadcast address.
			if ip = ip.WithZone(""); !ip.IsGlobalUnicast() {
				continue
			}
			switch {
			case ip.Is4() && ad.v4 == "":
				ad.v4 = ip.String()
			case ip.Is6() && !ip.Is4In6() && ad.v6 == "":
				ad.v6 = ip.String()
			}
		}
	}
	if ad.v4 == "" && ad.v6 == "" {
		ad.why = agentNoGlobal
	}
	return ad
}

// addressesAll asks the agents of every running VM of list, at most
// agentParallel at once, except those whose addresses addressMemory still
// holds.
func (a *account) addressesAll(ctx context.Context, list []resource) map[int]addresses {
	out := map[int]addresses{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, agentParallel)
	now := a.clock.Now()
	for _, r := range list {
		if !agentAsked(r) {
			continue
		}
		if ad, ok := a.addrs.recall(r, now); ok {
			// The asking goroutines write out too.
			mu.Lock()
			out[r.VMID] = ad
			mu.Unlock()
			continue
		}
		wg.Add(1)
		go func(r resource) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			ad := a.addressesOf(ctx, r.Node, r.VMID)
			a.addrs.remember(r, ad, now)
			mu.Lock()
			out[r.VMID] = ad
			mu.Unlock()
		}(r)
	}
	wg.Wait()
	return out
}

// agentAsked says whether a read asks r's agent: a running VM's, also
// under a lock that leaves the guest running (a nightly backup, a
// migration, a snapshot), so such a VM keeps its address and reads as
// running rather than pending while the lock lasts; not while it is being
// cloned, created or destroyed, when there is no guest to ask.
func agentAsked(r resource) bool {
	switch r.Lock {
	case "clone", "create", lockDestroyed:
		return false
	}
	return r.Status == statusRunning
}
