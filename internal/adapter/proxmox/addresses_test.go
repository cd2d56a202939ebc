package proxmox

import (
	"context"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/adaptertest"
)

// TestListingsReuseAgentAddresses: the listing rounds an apply's waits
// share ask a running VM's agent again only once its addresses are older
// than addressReuse, the VM restarted (its uptime fell behind the clock),
// or this process powered it; a direct read always asks.
func TestListingsReuseAgentAddresses(t *testing.T) {
	f := newFake(t)
	a := testAccount(t, f, nil)
	clock := &adaptertest.StepClock{}
	a.clock = clock
	m, err := a.Create(context.Background(), callFor(a, "web"), createReq("web"))
	if err != nil {
		t.Fatal(err)
	}
	vmid, _ := parseID(m.ID)
	uptime := func(s int64) {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.vms[vmid].Uptime = s
	}
	const route = "GET /nodes/{node}/qemu/{vmid}/agent/network-get-interfaces"
	asked := f.count(route)
	steps := []struct {
		name    string
		before  func()
		read    func() (adapter.Machine, error)
		askedTo int
	}{
		{"first listing", func() { uptime(100) }, nil, 1},
		{"same round again", nil, nil, 0},
		{"5s later, uptime kept pace", func() { clock.Step(5 * time.Second); uptime(105) }, nil, 0},
		{"restarted: uptime fell behind", func() { clock.Step(time.Second); uptime(3) }, nil, 1},
		{"after the restart's read", nil, nil, 0},
		{"older than addressReuse", func() { clock.Step(addressReuse); uptime(3 + int64(addressReuse/time.Second)) }, nil, 1},
		{"a direct read", nil, func() (adapter.Machine, error) { return a.Get(context.Background(), m.ID) }, 1},
		{"powered by this process", func() {
			if err := a.Power(context.Background(), m.ID, adapter.PowerReset); err != nil {
				t.Fatal(err)
			}
		}, nil, 1},
	}
	for _, s := range steps {
		if s.before != nil {
			s.before()
		}
		read := s.read
		if read == nil {
			read = func() (adapter.Machine, error) {
				list, err := a.List(context.Background())
				if err != nil || len(list) != 1 {
					t.Fatalf("%s: listing %+v, %v", s.name, list, err)
				}
				return list[0], nil
			}
		}
		got, err := read()
		if err != nil || got.State != adapter.StateRunning || !got.HasAddress() {
			t.Fatalf("%s: %+v, %v; want running with its address", s.name, got, err)
		}
		now := f.count(route)
		if now-asked != s.askedTo {
			t.Errorf("%s: %d agent requests, want %d", s.name, now-asked, s.askedTo)
		}
		asked = now
	}
}

// TestListingMixesRecalledAndAsked: one listing takes some VMs' addresses
// from memory while it asks the agents of others; under -race (make test
// runs this package with it) the two kinds of answer must not collide.
func TestListingMixesRecalledAndAsked(t *testing.T) {
	f := newFake(t)
	a := testAccount(t, f, nil)
	var ids []int
	for _, name := range []string{"a", "b", "c", "d", "e", "f"} {
		m, err := a.Create(context.Background(), callFor(a, name), createReq(name))
		if err != nil {
			t.Fatal(err)
		}
		vmid, _ := parseID(m.ID)
		ids = append(ids, vmid)
	}
	f.mu.Lock()
	for i, vmid := range ids {
		f.vms[vmid].Uptime = 100
		// Every other guest's agent is not running: asked each time.
		f.vms[vmid].agent = i%2 == 0
	}
	f.mu.Unlock()
	// The fake lists its VMs in random order; enough listings put a
	// remembered VM after an asked one.
	for range 20 {
		list, err := a.List(context.Background())
		if err != nil || len(list) != len(ids) {
			t.Fatalf("listing %+v, %v", list, err)
		}
	}
}
