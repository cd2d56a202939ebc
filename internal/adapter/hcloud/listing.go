package hcloud

import (
	"context"
	"strconv"
	"sync"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// pagesInFlight bounds the pages of one listing fetched at once: a listing
// of 1000 servers is 20 pages, and reading them four at a time takes five
// round trips instead of twenty without bursting into the rate limit.
const pagesInFlight = 4

// listServers follows every page of a label-selected listing, sorted by id
// so that servers created meanwhile land on later pages. Page 1 says how
// many pages there are; the rest are read concurrently. Any failing page
// fails the whole listing: a partial list would read as absence. what names
// the listing in errors.
func (a *account) listServers(ctx context.Context, selector, what string) ([]*hcloud.Server, error) {
	first, p, err := a.serverPage(ctx, selector, what, 1)
	if err != nil {
		return nil, err
	}
	pages := [][]*hcloud.Server{first}
	total := -1
	if p != nil {
		total = p.TotalEntries
	}
	switch {
	case p == nil || p.NextPage == 0:
	case p.LastPage > 1:
		rest, err := a.serverPages(ctx, selector, what, 2, p.LastPage)
		if err != nil {
			return nil, err
		}
		pages = append(pages, rest...)
	default:
		// No last page given: follow next_page one page at a time.
		for page := 1; p != nil && p.NextPage != 0; {
			if p.NextPage <= page {
				return nil, adapter.Errorf(adapter.Transient, "%s: page %d points back to page %d; the listing cannot be completed", what, page, p.NextPage)
			}
			page = p.NextPage
			var servers []*hcloud.Server
			if servers, p, err = a.serverPage(ctx, selector, what, page); err != nil {
				return nil, err
			}
			pages = append(pages, servers)
		}
	}
	var out []*hcloud.Server
	seen := map[int64]bool{}
	for _, servers := range pages {
		for _, s := range servers {
			if !seen[s.ID] {
				seen[s.ID] = true
				out = append(out, s)
			}
		}
	}
	if total > len(out) {
		return nil, adapter.Errorf(adapter.Transient, "%s: the API reported %d servers but its pages held %d; the listing is incomplete", what, total, len(out))
	}
	return out, nil
}

// serverPages reads pages from..to, pagesInFlight at a time, in page order.
// The first failure cancels the pages still in flight and is the one
// returned: the others may only have been cancelled because of it.
func (a *account) serverPages(ctx context.Context, selector, what string, from, to int) ([][]*hcloud.Server, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	out := make([][]*hcloud.Server, to-from+1)
	var (
		mu    sync.Mutex
		first error
		wg    sync.WaitGroup
	)
	sem := make(chan struct{}, pagesInFlight)
	for i := range out {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			servers, _, err := a.serverPage(ctx, selector, what, from+i)
			mu.Lock()
			defer mu.Unlock()
			if err != nil && first == nil {
				first = err
				cancel()
			}
			out[i] = servers
		}()
	}
	wg.Wait()
	if first == nil && ctx.Err() != nil {
		// The caller gave up before every page was asked for.
		first = failListing(what, ctx.Err())
	}
	if first != nil {
		return nil, first
	}
	return out, nil
}

// serverPage reads one page of a listing.
func (a *account) serverPage(ctx context.Context, selector, what string, page int) ([]*hcloud.Server, *hcloud.Pagination, error) {
	servers, resp, err := a.client.Server.List(ctx, hcloud.ServerListOpts{
		ListOpts: hcloud.ListOpts{Page: page, PerPage: pageSize, LabelSelector: selector},
		Sort:     []string{"id:asc"},
	})
	if err != nil {
		return nil, nil, failListing(what+", page "+strconv.Itoa(page), err)
	}
	return servers, resp.Meta.Pagination, nil
}
