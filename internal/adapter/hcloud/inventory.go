package hcloud

import (
	"context"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Inventory returns every server of the project, marked or not, mapped as
// Get maps one: the same listing as List (every page at the API's maximum
// size, a few pages in flight, any failing page fails it all) without the
// label selector, so servers created outside the provider are found for
// import. It reads only; nothing it returns is marked by it.
func (a *account) Inventory(ctx context.Context) ([]adapter.Machine, error) {
	servers, err := a.listServers(ctx, "", "list every server")
	if err != nil {
		return nil, err
	}
	out := make([]adapter.Machine, 0, len(servers))
	for _, s := range servers {
		out = append(out, toMachine(s))
	}
	return out, nil
}
