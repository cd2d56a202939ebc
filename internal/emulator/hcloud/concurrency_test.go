package hcloud_test

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	emulator "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

// TestConcurrentCreates races clients creating distinct names and the same
// names; exactly one server may exist per name, and every loser must be
// told uniqueness_error.
func TestConcurrentCreates(t *testing.T) {
	e, c, _ := start(t, emulator.Options{})
	const names, racersPerName, distinct = 8, 6, 24

	var won, lost atomic.Int64
	var wg sync.WaitGroup
	for n := range names {
		for range racersPerName {
			wg.Go(func() {
				_, _, err := c.Server.Create(ctx(t), createOpts(fmt.Sprintf("shared-%d", n), "cx22", "ubuntu-24.04", ""))
				switch {
				case err == nil:
					won.Add(1)
				case hcloud.IsError(err, hcloud.ErrorCodeUniquenessError):
					lost.Add(1)
				default:
					t.Errorf("create shared-%d: %v", n, err)
				}
			})
		}
	}
	for i := range distinct {
		wg.Go(func() {
			res, _, err := c.Server.Create(ctx(t), createOpts(fmt.Sprintf("own-%d", i), "cx22", "ubuntu-24.04", ""))
			if err == nil {
				err = c.Action.WaitFor(ctx(t), append([]*hcloud.Action{res.Action}, res.NextActions...)...)
			}
			if err != nil {
				t.Errorf("create own-%d: %v", i, err)
			}
		})
	}
	// Readers run alongside, polling actions and listing.
	for range 4 {
		wg.Go(func() {
			for range 10 {
				if _, err := c.Server.All(ctx(t)); err != nil {
					t.Errorf("list: %v", err)
				}
			}
		})
	}
	wg.Wait()

	if won.Load() != names || lost.Load() != names*(racersPerName-1) {
		t.Errorf("won %d, lost %d; want %d and %d", won.Load(), lost.Load(), names, names*(racersPerName-1))
	}
	perName := map[string]int{}
	addrs := map[string]bool{}
	for _, s := range e.Servers() {
		perName[s.Name]++
		if addrs[s.IPv4] {
			t.Errorf("address %s handed out twice", s.IPv4)
		}
		addrs[s.IPv4] = true
	}
	if len(perName) != names+distinct {
		t.Errorf("%d names, want %d", len(perName), names+distinct)
	}
	for name, n := range perName {
		if n != 1 {
			t.Errorf("%d servers named %s", n, name)
		}
	}
	if got := e.Stats()["POST /servers"]; got != names*racersPerName+distinct {
		t.Errorf("counted %d creates", got)
	}
}
