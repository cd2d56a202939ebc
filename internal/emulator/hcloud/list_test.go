package hcloud_test

import (
	"fmt"
	"testing"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	emulator "github.com/seedcompute/terraform-provider-compute/internal/emulator/hcloud"
)

func TestListWithLabelSelectorAndPagination(t *testing.T) {
	e, c, _ := start(t, emulator.Options{})
	for i := range 120 {
		labels := map[string]string{"managed-by": "compute", "shard": fmt.Sprint(i % 3)}
		if i%10 == 0 {
			delete(labels, "managed-by")
		}
		e.AddServer(emulator.Server{Name: fmt.Sprintf("srv-%03d", i), Labels: labels})
	}

	all, err := c.Server.All(ctx(t))
	if err != nil || len(all) != 120 {
		t.Fatalf("All: %d servers, %v", len(all), err)
	}
	if n := e.Stats()["GET /servers"]; n != 3 {
		t.Errorf("All took %d pages of 50, want 3", n)
	}

	e.SetMaxPageSize(7)
	e.ResetStats()
	managed, err := c.Server.AllWithOpts(ctx(t), hcloud.ServerListOpts{ListOpts: hcloud.ListOpts{LabelSelector: "managed-by=compute"}})
	if err != nil || len(managed) != 108 {
		t.Fatalf("managed: %d, %v", len(managed), err)
	}
	if n := e.Stats()["GET /servers"]; n != 16 {
		t.Errorf("pages of 7 for 108 servers: %d requests, want 16", n)
	}
	seen := map[int64]bool{}
	for _, s := range managed {
		if seen[s.ID] {
			t.Fatalf("server %d listed twice across pages", s.ID)
		}
		seen[s.ID] = true
	}

	for selector, want := range map[string]int{
		"managed-by":                      108,
		"!managed-by":                     12,
		"managed-by==compute,shard=1":     36,
		"managed-by=compute,shard!=1":     72,
		"shard in (0,2)":                  80,
		"shard notin (0,2),managed-by":    36,
		"managed-by=other":                0,
		" managed-by = compute , shard=2": 36,
	} {
		got, err := c.Server.AllWithOpts(ctx(t), hcloud.ServerListOpts{ListOpts: hcloud.ListOpts{LabelSelector: selector}})
		if err != nil || len(got) != want {
			t.Errorf("selector %q: %d servers, %v; want %d", selector, len(got), err, want)
		}
	}
	if _, err := c.Server.AllWithOpts(ctx(t), hcloud.ServerListOpts{ListOpts: hcloud.ListOpts{LabelSelector: "a=b=c=,"}}); !hcloud.IsError(err, hcloud.ErrorCodeInvalidInput) {
		t.Errorf("bad selector: %v", err)
	}
}

func TestListPageMetaAndSortAndStatus(t *testing.T) {
	e, c, _ := start(t, emulator.Options{})
	for _, name := range []string{"c", "a", "b"} {
		e.AddServer(emulator.Server{Name: name})
	}
	off := e.AddServer(emulator.Server{Name: "d", Status: "off"})

	page, resp, err := c.Server.List(ctx(t), hcloud.ServerListOpts{ListOpts: hcloud.ListOpts{Page: 2, PerPage: 3}})
	if err != nil || len(page) != 1 {
		t.Fatalf("page 2: %v %v", page, err)
	}
	p := resp.Meta.Pagination
	if p.Page != 2 || p.PerPage != 3 || p.PreviousPage != 1 || p.NextPage != 0 || p.LastPage != 2 || p.TotalEntries != 4 {
		t.Errorf("pagination %+v", *p)
	}
	if resp.Header.Get("Link") == "" {
		t.Error("no Link header")
	}

	sorted, _, err := c.Server.List(ctx(t), hcloud.ServerListOpts{Sort: []string{"name:desc"}})
	if err != nil || len(sorted) != 4 || sorted[0].Name != "d" || sorted[3].Name != "a" {
		t.Errorf("sorted by name desc: %v %v", names(sorted), err)
	}
	if _, _, err := c.Server.List(ctx(t), hcloud.ServerListOpts{Sort: []string{"colour"}}); !hcloud.IsError(err, hcloud.ErrorCodeInvalidInput) {
		t.Errorf("unknown sort field: %v", err)
	}

	stopped, _, err := c.Server.List(ctx(t), hcloud.ServerListOpts{Status: []hcloud.ServerStatus{hcloud.ServerStatusOff}})
	if err != nil || len(stopped) != 1 || stopped[0].ID != off {
		t.Errorf("status=off: %v %v", names(stopped), err)
	}
	both, _, _ := c.Server.List(ctx(t), hcloud.ServerListOpts{Status: []hcloud.ServerStatus{hcloud.ServerStatusOff, hcloud.ServerStatusRunning}})
	if len(both) != 4 {
		t.Errorf("status=off&status=running: %v", names(both))
	}
}

func names(servers []*hcloud.Server) []string {
	out := make([]string, len(servers))
	for i, s := range servers {
		out[i] = s.Name
	}
	return out
}
