package robot

import (
	"math"
	"slices"
	"sync"
)

// pending marks a server whose claim write is under way.
const pending = math.MaxUint64

// claims keeps the creates of one process from claiming the same free
// server. Robot has no conditional write, and the read-back after a claim
// only sees the writes before it: two creates that picked one server from
// listings read before either wrote would each write the name and each read
// its own back, one after the other, and both take the server (one
// terraform apply creating many instances did exactly that). So a create
// picks a free server under this lock, from its listing minus the servers
// another create of this process is writing, or wrote after that listing
// was read. Creates in other processes are still only caught by the
// read-back.
type claims struct {
	mu  sync.Mutex
	now uint64
	// written is the tick at which a claim write on the server ended, or
	// pending while it runs.
	written map[int]uint64
}

// listing returns the tick to stamp a listing with: call it before the
// listing is requested, so a write that ends during the request counts as
// later than the listing.
func (c *claims) listing() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now++
	return c.now
}

// take picks the lowest-numbered server of list that free accepts and no
// claim of this process wrote since the listing (listedAt), and holds it
// until done is called once its claim write has ended, won or lost.
func (c *claims) take(list []server, listedAt uint64, free func(server) bool) (s server, done func(), ok bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var fit []server
	for _, s := range list {
		if free(s) && c.written[s.Number] <= listedAt {
			fit = append(fit, s)
		}
	}
	if len(fit) == 0 {
		return server{}, nil, false
	}
	s = slices.MinFunc(fit, func(x, y server) int { return x.Number - y.Number })
	if c.written == nil {
		c.written = map[int]uint64{}
	}
	c.written[s.Number] = pending
	return s, func() {
		c.mu.Lock()
		defer c.mu.Unlock()
		c.now++
		c.written[s.Number] = c.now
	}, true
}
