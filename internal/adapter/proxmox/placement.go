package proxmox

import "sync"

// placements is the memory, per node, that creates of this process have
// placed and not finished: GET /nodes counts a VM's memory once it runs,
// so without this every create of a parallel apply would see the same
// free memory and pick the same node. Creates in other processes are not
// seen; PVE itself lets a node's memory be overcommitted.
type placements struct {
	mu  sync.Mutex
	mib map[string]int64
}

// choose is the online node with the most free memory, less what is
// placed on it, that fits f, ties broken by name; nil when none fits.
// With place the flavor's memory is held on the chosen node until the
// returned release is called.
func (p *placements) choose(nodes []node, f flavor, place bool) (*node, func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	var best *node
	var bestFree int64
	for i := range nodes {
		n := nodes[i]
		n.Mem += p.mib[n.Node] << 20
		if !n.fits(f) {
			continue
		}
		if free := n.MaxMem - n.Mem; best == nil || free > bestFree || (free == bestFree && n.Node < best.Node) {
			best, bestFree = &nodes[i], free
		}
	}
	if best == nil || !place {
		return best, func() {}
	}
	if p.mib == nil {
		p.mib = map[string]int64{}
	}
	name, mib := best.Node, int64(f.MemoryMiB)
	p.mib[name] += mib
	var once sync.Once
	return best, func() {
		once.Do(func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			p.mib[name] -= mib
		})
	}
}
