package hcloud

import (
	"context"
	"testing"
	"time"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// benchAccount starts an emulator seeded by seed that answers with 20ms
// of latency, as a distant API does, and opens an account on it on the
// real clock, as the provider does. Both live until ctx ends.
func benchAccount(ctx context.Context, b *testing.B, seed func(*emu.Emulator)) (*emu.Emulator, adapter.Adapter) {
	b.Helper()
	e, endpoint, stop, err := emu.NewServer(ctx, emu.Options{Token: testToken})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(stop)
	seed(e)
	e.SetLatency(20 * time.Millisecond)
	def := definition(defaultOptions())
	settings, err := def.Normalize(testSettings(endpoint), nil)
	if err != nil {
		b.Fatal(err)
	}
	env := testEnv(testToken)
	env.Clock = adapter.RealClock{}
	a, err := def.New(settings, env)
	if err != nil {
		b.Fatal(err)
	}
	return e, a
}

// measure runs op b.N times, timing op alone, and reports beside the time
// how many API requests a run cost, as unit.
func measure(b *testing.B, e *emu.Emulator, unit string, op func()) {
	b.Helper()
	requests := 0
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		e.ResetStats()
		b.StartTimer()
		op()
		b.StopTimer()
		for _, c := range e.Stats() {
			requests += c
		}
		b.StartTimer()
	}
	b.ReportMetric(float64(requests)/float64(b.N), unit)
}
