package proxmox

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// BenchmarkRefresh reports the requests one refresh of N running instances
// costs against the emulator through adapter.Cached, as the Terraform layer
// reads them: one cluster listing for all, plus one bounded agent read per
// running VM (PVE has no bulk agent call), at most 16 at once.
func BenchmarkRefresh(b *testing.B) {
	for _, n := range []int{10, 100} {
		b.Run(fmt.Sprintf("instances=%d", n), func(b *testing.B) {
			c := newConfTarget(b)
			a := c.open(b, map[string]string{"vmid_max": "999999"})
			ids := make([]string, n)
			for i := range n {
				name := fmt.Sprintf("r-%03d", i)
				m, err := a.Create(context.Background(), callFor(a, name), emuReq(name))
				if err != nil {
					b.Fatal(err)
				}
				ids[i] = m.ID
			}
			for _, id := range ids {
				waitFor(b, func() bool {
					m, err := a.Get(context.Background(), id)
					return err == nil && m.State == adapter.StateRunning
				})
			}
			total := 0
			b.ResetTimer()
			for range b.N {
				// A refresh is a new provider process: a new account and
				// its Cached, no memory of earlier reads.
				fresh := c.open(b, map[string]string{"vmid_max": "999999"})
				cached := adapter.NewCached(fresh, nil, 0)
				before := c.emu.Conformance().Requests()
				var wg sync.WaitGroup
				for _, id := range ids {
					wg.Add(1)
					go func() {
						defer wg.Done()
						if m, err := cached.Get(context.Background(), id); err != nil || m.State != adapter.StateRunning {
							b.Errorf("%s: %s %v", id, m.State, err)
						}
					}()
				}
				wg.Wait()
				total += c.emu.Conformance().Requests() - before
			}
			b.ReportMetric(float64(total)/float64(b.N), "requests/refresh")
		})
	}
}
