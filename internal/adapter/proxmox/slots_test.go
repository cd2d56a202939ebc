package proxmox

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// The slot formula is pinned: every process, and every release, must derive
// the same home slot for a key, or two creates of one key (or a rerun after
// an upgrade) would clone twice. The values were computed apart from the
// code: vmid_min + big-endian uint64 of sha256(key)[:8] mod the range size.
func TestHomeSlot(t *testing.T) {
	for _, tc := range []struct {
		key      string
		min, max uint64
		want     uint64
	}{
		{"0123456789abcdef0123456789abcdef", 100000, 199999, 104022},
		{"ffffffffffffffffffffffffffffffff", 100000, 199999, 101648},
		{"", 100000, 199999, 161652},
		{"0123456789abcdef0123456789abcdef", 100000, 100001, 100000},
		{"k", 1000, 1099, 1010},
		{"k", 100, 100, 100}, // min == max: one slot
	} {
		a := &account{vmidMin: tc.min, vmidMax: tc.max}
		if got := a.home(tc.key); got != tc.want {
			t.Errorf("home(%q) in [%d,%d] = %d, want %d", tc.key, tc.min, tc.max, got, tc.want)
		}
	}
	a := &account{vmidMin: 100, vmidMax: 101}
	if a.next(100) != 101 || a.next(101) != 100 {
		t.Errorf("next in [100,101]: %d, %d; want 101, then 100 (wrapping)", a.next(100), a.next(101))
	}
}

// Two names whose keys share a home slot: the second create passes the
// first's VM (another key) and takes the next slot, leaving the first VM as
// it was; with both slots taken a third is QuotaExceeded on vmid_max.
func TestSlotCollision(t *testing.T) {
	f := newFake(t)
	a := testAccount(t, f, map[string]string{"vmid_min": "100000", "vmid_max": "100001"})
	ctx := context.Background()
	first := callFor(a, "first")
	home := a.home(first.IdempotencyKey)
	second := ""
	for i := 0; second == ""; i++ {
		if n := fmt.Sprintf("second-%d", i); a.home(adapter.IdempotencyKey(a.scope, n)) == home {
			second = n
		}
	}
	m1, err := a.Create(ctx, first, createReq("first"))
	if err != nil || m1.ID != strconv.FormatUint(home, 10) {
		t.Fatalf("first create: %+v %v, want slot %d", m1, err, home)
	}
	vm := f.vms[mustAtoi(m1.ID)]
	before, beforeTags := vm.cfg["description"], vm.Tags
	m2, err := a.Create(ctx, callFor(a, second), createReq(second))
	if err != nil {
		t.Fatal(err)
	}
	if want := strconv.FormatUint(a.next(home), 10); m2.ID != want || m2.Adopted || m2.Name != second {
		t.Errorf("second create, its home slot taken: %+v, want a new VM %s at slot %s", m2, second, want)
	}
	if vm.cfg["description"] != before || vm.Tags != beforeTags || vm.Name != "first" {
		t.Errorf("the first VM was changed: %q %q %q", vm.Name, vm.cfg["description"], vm.Tags)
	}
	if n := f.count(routeClone); n != 2 {
		t.Errorf("%d clones, want 2", n)
	}
	_, err = a.Create(ctx, callFor(a, "third"), createReq("third"))
	var e *adapter.Error
	if !adapter.Is(err, adapter.QuotaExceeded) || !errors.As(err, &e) || e.Field != settingVMIDMax {
		t.Errorf("third create in a full range: %v, want QuotaExceeded on %s", err, settingVMIDMax)
	}
}
