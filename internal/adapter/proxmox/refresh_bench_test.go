package proxmox

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// BenchmarkRefresh reports the requests one refresh of N instances costs
// through adapter.Cached: one cluster listing, and one agent read per
// running VM (concurrent, bounded), whatever N.
func BenchmarkRefresh(b *testing.B) {
	for _, n := range []int{10, 100} {
		b.Run(fmt.Sprintf("instances=%d", n), func(b *testing.B) {
			f := newFake(&testing.T{})
			defer f.srv.Close()
			a := testAccount(&testing.T{}, f, map[string]string{"vmid_max": "999999"})
			ids := make([]string, n)
			for i := range n {
				name := fmt.Sprintf("r-%03d", i)
				m, err := a.Create(context.Background(), callFor(a, name), createReq(name))
				if err != nil {
					b.Fatal(err)
				}
				ids[i] = m.ID
			}
			total := 0
			b.ResetTimer()
			for range b.N {
				c := adapter.NewCached(a, nil, 0)
				a.agents = agentMemory{quiet: a.opts.agentQuiet}
				f.mu.Lock()
				before := f.authed
				f.mu.Unlock()
				var wg sync.WaitGroup
				for _, id := range ids {
					wg.Add(1)
					go func() {
						defer wg.Done()
						if m, err := c.Get(context.Background(), id); err != nil || m.State != adapter.StateRunning {
							b.Errorf("%s: %s %v", id, m.State, err)
						}
					}()
				}
				wg.Wait()
				f.mu.Lock()
				total += f.authed - before
				f.mu.Unlock()
			}
			b.ReportMetric(float64(total)/float64(b.N), "requests/refresh")
		})
	}
}
