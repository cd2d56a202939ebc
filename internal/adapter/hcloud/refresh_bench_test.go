package hcloud

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	emu "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// BenchmarkRefresh measures what a terraform refresh of N instances on one
// account costs: N reads issued ten at a time (Terraform's default
// parallelism) against an emulator answering with 20ms latency. "cached"
// reads through adapter.Cached, the path the provider takes; "direct" reads
// every machine on its own, the cost the listing saves. It reports API
// requests per refresh beside the wall time.
//
//	go test ./internal/adapter/hcloud -run '^$' -bench Refresh -benchtime 3x
func BenchmarkRefresh(b *testing.B) {
	for _, n := range []int{10, 100, 1000} {
		for _, mode := range []string{"cached", "direct"} {
			if mode == "direct" && n == 1000 && testing.Short() {
				continue
			}
			b.Run(fmt.Sprintf("%s/N=%d", mode, n), func(b *testing.B) { benchRefresh(b, n, mode == "cached") })
		}
	}
}

func benchRefresh(b *testing.B, n int, cached bool) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ids := make([]string, n)
	e, a := benchAccount(ctx, b, func(e *emu.Emulator) {
		for i := range ids {
			id := e.AddServer(emu.Server{Name: "bench-" + strconv.Itoa(i), Labels: map[string]string{
				"compute.seedcompute.io/managed": "true",
				"compute.seedcompute.io/key":     fmt.Sprintf("%032x", i),
			}})
			ids[i] = strconv.FormatInt(id, 10)
		}
	})
	// The account proves its endpoint once per run; keep that out of the
	// per-refresh count.
	if err := a.(adapter.Checker).Check(ctx); err != nil {
		b.Fatal(err)
	}
	measure(b, e, "requests/refresh", func() {
		get := a.Get
		if cached {
			get = adapter.NewCached(a, adapter.RealClock{}, 0).Get
		}
		refresh(b, get, ids)
	})
}

func refresh(b *testing.B, get func(context.Context, string) (adapter.Machine, error), ids []string) {
	var wg sync.WaitGroup
	sem := make(chan struct{}, 10)
	for _, id := range ids {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			if m, err := get(context.Background(), id); err != nil || m.ID != id {
				b.Errorf("read %s: %v", id, err)
			}
		}()
	}
	wg.Wait()
}
