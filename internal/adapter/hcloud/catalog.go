package hcloud

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// currency is the one currency Hetzner Cloud prices in: the pricing
// endpoint reports EUR for every project, and server type prices are in it.
const currency = "EUR"

// catalog is what offers and validation need, loaded once per account (one
// terraform run): server types, locations and, only for an API that does not
// yet report availability per server type, datacenters.
type catalog struct {
	types     []*hcloud.ServerType
	locations []*hcloud.Location
	// availableIn holds datacenter availability by location name and server
	// type id; nil when every server type reports its own.
	availableIn map[string]map[int64]bool
}

func (a *account) loadCatalog(ctx context.Context) (*catalog, error) {
	return a.catalog.get(ctx, func(ctx context.Context) (*catalog, error) {
		types, err := a.client.ServerType.AllWithOpts(ctx, hcloud.ServerTypeListOpts{ListOpts: hcloud.ListOpts{PerPage: pageSize}})
		if err != nil {
			return nil, failListing("read the server types", err)
		}
		locations, err := a.loadLocations(ctx, "read the locations")
		if err != nil {
			return nil, err
		}
		c := &catalog{types: types, locations: locations}
		if slices.ContainsFunc(types, func(t *hcloud.ServerType) bool { return len(t.Locations) == 0 }) {
			// Server types report availability per location
			// (server_types[].locations[].available); the datacenters'
			// server_types lists, deprecated by the API, are only read when
			// a type lacks that.
			dcs, err := a.client.Datacenter.AllWithOpts(ctx, hcloud.DatacenterListOpts{ListOpts: hcloud.ListOpts{PerPage: pageSize}}) //nolint:staticcheck // fallback for older API answers
			if err != nil {
				return nil, failListing("read the datacenters", err)
			}
			c.availableIn = map[string]map[int64]bool{}
			for _, dc := range dcs {
				if dc.Location == nil {
					continue
				}
				m := c.availableIn[dc.Location.Name]
				if m == nil {
					m = map[int64]bool{}
					c.availableIn[dc.Location.Name] = m
				}
				for _, t := range dc.ServerTypes.Available { //nolint:staticcheck // see above
					m[t.ID] = true
				}
			}
		}
		return c, nil
	})
}

func (c *catalog) location(name string) *hcloud.Location {
	for _, l := range c.locations {
		if l.Name == name {
			return l
		}
	}
	return nil
}

func (c *catalog) locationNames() []string {
	names := make([]string, 0, len(c.locations))
	for _, l := range c.locations {
		names = append(names, l.Name)
	}
	slices.Sort(names)
	return names
}

func (c *catalog) serverType(name string) *hcloud.ServerType {
	for _, t := range c.types {
		if t.Name == name {
			return t
		}
	}
	return nil
}

// placement is what a server type is in one location.
type placement struct {
	supported  bool
	available  bool
	deprecated bool
	price      *hcloud.ServerTypeLocationPricing
}

func (c *catalog) placement(t *hcloud.ServerType, location string) placement {
	p := placement{deprecated: t.IsDeprecated()}
	for i := range t.Pricings {
		if t.Pricings[i].Location != nil && t.Pricings[i].Location.Name == location {
			p.price = &t.Pricings[i]
		}
	}
	if len(t.Locations) > 0 {
		for _, l := range t.Locations {
			if l.Location != nil && l.Location.Name == location {
				p.supported = true
				p.available = l.Available
				p.deprecated = p.deprecated || l.IsDeprecated()
			}
		}
		return p
	}
	p.supported = p.price != nil
	p.available = c.availableIn[location][t.ID]
	return p
}

// sellable lists the names of the server types on sale in location.
func (c *catalog) sellable(location string) []string {
	var names []string
	for _, t := range c.types {
		if p := c.placement(t, location); p.supported && p.available && !p.deprecated {
			names = append(names, t.Name)
		}
	}
	slices.Sort(names)
	return names
}

// ListOffers lists the server types of one location (the query's or the
// account's) with that location's gross hourly price. Deprecated types are
// left out; sold-out ones stay, with Available false. Hetzner Cloud has no
// dedicated machines and no GPUs, so such queries get [].
func (a *account) ListOffers(ctx context.Context, q adapter.Query) ([]adapter.Offer, error) {
	offers := []adapter.Offer{}
	if q.Kind == adapter.KindMetal || q.MinGPUs > 0 || q.GPUModel != "" {
		return offers, nil
	}
	c, err := a.loadCatalog(ctx)
	if err != nil {
		return nil, err
	}
	location := cmp.Or(q.Location, a.location)
	if c.location(location) == nil {
		return nil, unknownLocation(c, location)
	}
	for _, t := range c.types {
		p := c.placement(t, location)
		if !p.supported || p.deprecated {
			continue
		}
		o := adapter.Offer{
			ID:          t.Name,
			Kind:        adapter.KindVPS,
			Location:    location,
			Description: describeType(t),
			VCPU:        t.Cores,
			MemoryGiB:   float64(t.Memory),
			DiskGiB:     t.Disk,
			Available:   p.available,
		}
		if p.price != nil {
			// ParseFloat also reads "NaN", "Inf" and negative numbers,
			// which are no price (a NaN would panic where Terraform
			// converts the offer): such an offer has no price, as one
			// without pricing.
			if gross, err := strconv.ParseFloat(p.price.Hourly.Gross, 64); err == nil && gross >= 0 && !math.IsInf(gross, 0) {
				o.PricePerHour, o.Currency = gross, currency
			}
		}
		if q.Match(o) {
			offers = append(offers, o)
		}
	}
	slices.SortFunc(offers, func(x, y adapter.Offer) int {
		return cmp.Or(cmp.Compare(x.PricePerHour, y.PricePerHour), cmp.Compare(x.ID, y.ID))
	})
	return offers, nil
}

func describeType(t *hcloud.ServerType) string {
	return fmt.Sprintf("%s: %d vCPU (%s, %s), %g GB RAM, %d GB %s disk",
		strings.ToUpper(t.Name), t.Cores, t.CPUType, t.Architecture, t.Memory, t.Disk, t.StorageType)
}

func unknownLocation(c *catalog, location string) error {
	return adapter.Errorf(adapter.InvalidInput, "location %q does not exist; available: %s",
		location, strings.Join(c.locationNames(), ", ")).WithField(adapter.FieldLocation)
}

// Check makes one cheap authenticated read: the project's locations, one
// page, which must hold the account's own. The listing is read once per
// account (one terraform run) and shared with the catalog and the proof
// that the endpoint is the API, so the check at plan, the check at apply
// and the validation of every instance cost one request between them; a
// failed check is retried with a fresh request. An unknown location is
// reported on the account's location setting. A read-only token passes it;
// CheckWrite tells it apart.
func (a *account) Check(ctx context.Context) error {
	all, err := a.loadLocations(ctx, "check the Hetzner Cloud account at "+adapter.Redacted(a.endpoint))
	if err != nil {
		return err
	}
	if slices.ContainsFunc(all, func(l *hcloud.Location) bool { return l.Name == a.location }) {
		return nil
	}
	names := make([]string, 0, len(all))
	for _, l := range all {
		names = append(names, l.Name)
	}
	slices.Sort(names)
	return adapter.Errorf(adapter.InvalidConfig, "location %q does not exist; available: %s",
		a.location, strings.Join(names, ", ")).WithField("location")
}
