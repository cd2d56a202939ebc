package proxmox

import (
	"context"
	"slices"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// node is one entry of GET /nodes.
type node struct {
	Node   string `json:"node"`
	Status string `json:"status"`
	MaxCPU int    `json:"maxcpu"`
	MaxMem int64  `json:"maxmem"`
	Mem    int64  `json:"mem"`
}

func (n node) online() bool { return n.Status == "online" }

func (n node) fits(f flavor) bool {
	return n.online() && n.MaxCPU >= f.Cores && n.MaxMem-n.Mem >= int64(f.MemoryMiB)<<20
}

func (a *account) nodes(ctx context.Context) ([]node, error) {
	var out []node
	if err := a.c.Get(ctx, "/nodes", &out); err != nil {
		return nil, fail("list the cluster's nodes", err)
	}
	return out, nil
}

// ListOffers is one offer per flavor; Location is the node asked for (the
// query's, else the account's) or "" for any node, and an offer is
// available when that node, or any online node, fits it. No prices.
func (a *account) ListOffers(ctx context.Context, q adapter.Query) ([]adapter.Offer, error) {
	nodes, err := a.nodes(ctx)
	if err != nil {
		return nil, err
	}
	loc := q.Location
	if loc == "" {
		loc = a.node
	}
	if loc != "" && !slices.ContainsFunc(nodes, func(n node) bool { return n.Node == loc }) {
		return []adapter.Offer{}, nil
	}
	out := []adapter.Offer{}
	for _, name := range sortedFlavors(a.flavors) {
		f := a.flavors[name]
		o := adapter.Offer{
			ID: name, Kind: adapter.KindVPS, Location: loc, VCPU: f.Cores, MemoryGiB: float64(f.MemoryMiB) / 1024, DiskGiB: f.DiskGiB,
			Description: describeFlavor(f),
			Available:   slices.ContainsFunc(nodes, func(n node) bool { return (loc == "" || n.Node == loc) && n.fits(f) }),
		}
		if q.Match(o) {
			out = append(out, o)
		}
	}
	return out, nil
}

func sortedFlavors(fs map[string]flavor) []string {
	return strings.Split(flavorNames(fs), ", ")
}

func describeFlavor(f flavor) string {
	s := f.Name + ": " + itoa(f.Cores) + " cores, " + itoa(f.MemoryMiB) + " MiB, " + itoa(f.DiskGiB) + " GiB disk"
	if f.Template != "" {
		s += ", template " + f.Template
	}
	return s
}

// Check reads the API's version: cheap, and authenticated.
func (a *account) Check(ctx context.Context) error {
	var v struct {
		Version string `json:"version"`
	}
	if err := a.c.Get(ctx, "/version", &v); err != nil {
		return failListing("check the PVE API", err)
	}
	return nil
}
