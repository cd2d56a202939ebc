package hcloud

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// BenchmarkInventory measures what a compute_machines read of one account
// of N servers (every other one managed) costs against an emulator answering
// with 20ms latency: pages of 50, four in flight. It reports API requests per
// inventory beside the wall time.
//
//	go test ./internal/adapter/hcloud -run '^$' -bench Inventory -benchtime 3x
func BenchmarkInventory(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) { benchInventory(b, n) })
	}
}

func benchInventory(b *testing.B, n int) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e, a := benchAccount(ctx, b, func(e *emu.Emulator) {
		for i := range n {
			labels := map[string]string{}
			if i%2 == 0 {
				labels = map[string]string{labelManaged: "true", labelKey: fmt.Sprintf("%032x", i)}
			}
			e.AddServer(emu.Server{Name: "bench-" + strconv.Itoa(i), Labels: labels})
		}
	})
	inv := a.(adapter.Inventory)
	measure(b, e, "requests/inventory", func() {
		ms, err := inv.Inventory(ctx)
		if err != nil || len(ms) != n {
			b.Fatalf("inventory: %d machines, %v; want %d", len(ms), err, n)
		}
	})
}
