package proxmox

import (
	"sync"
	"time"
)

// addressReuse is how long a listing takes a VM's addresses as its agent
// last gave them instead of asking again. Every wait of every create of an
// apply polls the shared listing, and a listing asks the agent of every
// running managed VM: without it, an apply of a thousand VMs asked over a
// hundred thousand agents. Short, since an address can change without a
// restart (a DHCP lease); a new process (every plan) starts with none.
const addressReuse = 15 * time.Second

// uptimeSlack absorbs the rounding of PVE's uptime (whole seconds) and the
// skew between its clock and this process's.
const uptimeSlack = 2

// addressMemory remembers the addresses each running VM's agent last
// gave, for listings (a direct read, Get, always asks). Only addresses are
// remembered: a VM without one yet is asked every round, since that is
// what a create waits for.
type addressMemory struct {
	mu   sync.Mutex
	seen map[int]seenAddresses
}

type seenAddresses struct {
	ad     addresses
	node   string
	uptime int64
	at     time.Time
}

// recall returns r's remembered addresses while they may stand: read less
// than addressReuse ago, on the same node, and by a guest that has not
// restarted since (its uptime kept pace with the clock; one that fell
// behind booted again, and may have another address or none yet).
func (m *addressMemory) recall(r resource, now time.Time) (addresses, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	s, ok := m.seen[r.VMID]
	if !ok || s.node != r.Node || r.Uptime <= 0 {
		return addresses{}, false
	}
	elapsed := now.Sub(s.at)
	if elapsed < 0 || elapsed >= addressReuse || r.Uptime+uptimeSlack < s.uptime+int64(elapsed/time.Second) {
		return addresses{}, false
	}
	return s.ad, true
}

// remember keeps what r's agent just said, or forgets r when it gave no
// address.
func (m *addressMemory) remember(r resource, ad addresses, now time.Time) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if ad.v4 == "" && ad.v6 == "" || r.Uptime <= 0 {
		delete(m.seen, r.VMID)
		return
	}
	if m.seen == nil {
		m.seen = map[int]seenAddresses{}
	}
	m.seen[r.VMID] = seenAddresses{ad: ad, node: r.Node, uptime: r.Uptime, at: now}
}

// forget drops what is remembered of vmid: this process just powered,
// changed or deleted it, and the next read must see the guest as it is.
func (m *addressMemory) forget(vmid int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.seen, vmid)
}
