package proxmox

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"strconv"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// maxProbes bounds the walk from a key's home slot to a free one.
const maxProbes = 64

// home is the key's first slot: vmid_min + (first 8 bytes of sha256(key))
// mod the range's size. Every process derives the same, so two creates of
// one key meet at one VMID (where PVE's "already exists" lets one win)
// instead of both taking /cluster/nextid's answer.
func (a *account) home(key string) uint64 {
	sum := sha256.Sum256([]byte(key))
	return a.vmidMin + binary.BigEndian.Uint64(sum[:8])%(a.vmidMax-a.vmidMin+1)
}

// next is the slot after v, wrapping to vmid_min.
func (a *account) next(v uint64) uint64 {
	if v >= a.vmidMax {
		return a.vmidMin
	}
	return v + 1
}

// slot is where a key's VM is or goes.
type slot struct {
	vmid int
	// ours is set when a VM carrying the key is there already: r is it as
	// listed, cfg its configuration.
	ours bool
	r    resource
	cfg  vmConfig
}

// probe walks from the key's home slot: a free VMID, or the VM carrying
// the key, whichever comes first; slots held by a template, a VM that is
// not ours or one of another key are passed. One listing, and a config
// read only of the occupied slots on the way. The mark is read from the
// description, not the tags: a clone interrupted before its first config
// write carries the description only.
func (a *account) probe(ctx context.Context, what, key string) (slot, error) {
	list, err := a.vms(ctx)
	if err != nil {
		return slot{}, fail(what+": list the cluster's VMs", err)
	}
	v := a.home(key)
	for range maxProbes {
		r, taken := find(list, int(v))
		if !taken {
			return slot{vmid: int(v)}, nil
		}
		if r.Template != 1 {
			cfg, err := a.config(ctx, r.Node, r.VMID)
			switch {
			case isNotExist(err):
				// Deleted since the listing: free, and the clone's own
				// "already exists" guards a create that took it meanwhile.
				return slot{vmid: int(v)}, nil
			case err != nil:
				return slot{}, fail(what+": read the configuration of "+describe(r), err)
			}
			if managed, m, _ := cfg.mark(); managed && m.Key == key {
				return slot{vmid: int(v), ours: true, r: r, cfg: cfg}, nil
			}
		}
		v = a.next(v)
	}
	return slot{}, adapter.Errorf(adapter.QuotaExceeded, "%s: no free VMID in [%d,%d] within %d slots of this name's; widen the range (vmid_min, vmid_max)",
		what, a.vmidMin, a.vmidMax, maxProbes).WithField(settingVMIDMax)
}

// markedMachine is the VM at a slot of ours as Adoptable judges it.
func (a *account) markedMachine(s slot) adapter.Machine {
	m := a.toMachine(s.r, addresses{})
	managed, mark, _ := s.cfg.mark()
	m.Managed, m.Key, m.Fingerprint, m.Claim, m.Unconfirmed = managed, mark.Key, mark.Fingerprint, mark.Claim, mark.Unconfirmed
	m.ID = strconv.Itoa(s.vmid)
	return m
}
