package proxmox

import (
	"context"
	"fmt"
	"testing"
)

// TestRefreshReusesConnections: refreshes through one account (each the
// cluster listing, then every running VM's agent, agentParallel at a time)
// open a bounded number of connections however many reads they make, because
// the account keeps the connections it opened idle for the next read. Each new connection is a
// TLS handshake, which costs PVE and the provider more than the read it
// carries; counted by the API's side, not timed.
func TestRefreshReusesConnections(t *testing.T) {
	f := newFake(t)
	const n, rounds = 3 * agentParallel, 3
	for i := range n {
		f.addVM(100100+i, fmt.Sprintf("vm-%d", i), tagManaged, "", "running")
	}
	a := testAccount(t, f, nil)
	for round := range rounds {
		// As a new provider process would, ask every agent again.
		a.addrs = addressMemory{}
		ms, err := a.List(context.Background())
		if err != nil || len(ms) != n {
			t.Fatalf("round %d: %d machines, %v; want %d", round, len(ms), err, n)
		}
	}
	if got := f.count("GET /nodes/{node}/qemu/{vmid}/agent/network-get-interfaces"); got != rounds*n {
		t.Fatalf("%d agent reads for %d rounds of %d running VMs: the reads whose connections this test counts did not happen", got, rounds, n)
	}
	// The bound is twice the idle pool: net/http may dial for a read while
	// another's connection is about to come free, more often on a busy
	// machine, but a pool of two idle connections opens over 90 and no
	// pool at all one per read.
	if got := f.connections(); got > 2*maxConns {
		t.Errorf("%d refreshes of %d VMs through one account opened %d connections (TLS handshakes); want at most %d",
			rounds, n, got, 2*maxConns)
	}
	t.Logf("%d reads, %d connections", rounds*(n+1), f.connections())
}
