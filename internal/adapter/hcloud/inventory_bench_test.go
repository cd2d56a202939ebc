package hcloud

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

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
	e, endpoint, stop, err := emu.NewServer(ctx, emu.Options{Token: testToken})
	if err != nil {
		b.Fatal(err)
	}
	defer stop()
	for i := range n {
		labels := map[string]string{}
		if i%2 == 0 {
			labels = map[string]string{labelManaged: "true", labelKey: fmt.Sprintf("%032x", i)}
		}
		e.AddServer(emu.Server{Name: "bench-" + strconv.Itoa(i), Labels: labels})
	}
	e.SetLatency(20 * time.Millisecond)
	def := definition(defaultOptions())
	settings, err := def.Normalize(testSettings(endpoint), nil)
	if err != nil {
		b.Fatal(err)
	}
	env := testEnv(testToken)
	env.Clock = adapter.RealClock{}
	raw, err := def.New(settings, env)
	if err != nil {
		b.Fatal(err)
	}
	inv := raw.(adapter.Inventory)
	requests := 0
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		e.ResetStats()
		b.StartTimer()
		ms, err := inv.Inventory(ctx)
		b.StopTimer()
		if err != nil || len(ms) != n {
			b.Fatalf("inventory: %d machines, %v; want %d", len(ms), err, n)
		}
		for _, c := range e.Stats() {
			requests += c
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(requests)/float64(b.N), "requests/inventory")
}
