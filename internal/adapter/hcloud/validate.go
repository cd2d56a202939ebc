package hcloud

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/hetznercloud/hcloud-go/v2/hcloud"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Validate checks a create request against the catalog before anything is
// created: the location, then the offer in that location, then the image
// for the offer's architecture. Each error is InvalidInput on the field at
// fault and lists what would work instead.
func (a *account) Validate(ctx context.Context, req adapter.CreateRequest) error {
	if err := labelMarks.CheckUser(req.Labels); err != nil {
		return err
	}
	c, err := a.loadCatalog(ctx)
	if err != nil {
		return err
	}
	location := cmp.Or(req.Location, a.location)
	if c.location(location) == nil {
		return unknownLocation(c, location)
	}
	t, err := checkOffer(c, req.OfferID, location)
	if err != nil {
		return err
	}
	images, err := a.loadImages(ctx)
	if err != nil {
		return err
	}
	return checkImage(images, req.Image, t)
}

func checkOffer(c *catalog, offer, location string) (*hcloud.ServerType, error) {
	sellable := orNone(c.sellable(location))
	invalid := func(format string, args ...any) error {
		return adapter.Errorf(adapter.InvalidInput, format, args...).WithField(adapter.FieldOfferID)
	}
	t := c.serverType(offer)
	if t == nil {
		return nil, invalid("offer %q does not exist in %s; available: %s", offer, location, sellable)
	}
	p := c.placement(t, location)
	switch {
	case p.deprecated:
		return nil, invalid("offer %q is deprecated in %s and can no longer be created; available: %s", offer, location, sellable)
	case !p.supported:
		var elsewhere []string
		for _, l := range c.locationNames() {
			if q := c.placement(t, l); q.supported && !q.deprecated {
				elsewhere = append(elsewhere, l)
			}
		}
		return nil, invalid("offer %q is not sold in %s (it is sold in: %s); available in %s: %s",
			offer, location, orNone(elsewhere), location, sellable)
	case !p.available:
		return nil, invalid("offer %q exists in %s but is unavailable there for now (sold out); choose another offer or location; available in %s: %s",
			offer, location, location, sellable)
	}
	return t, nil
}

// loadImages lists every image of the project once: system and app images
// by name, snapshots and backups by id.
func (a *account) loadImages(ctx context.Context) ([]*hcloud.Image, error) {
	return a.images.get(ctx, func(ctx context.Context) ([]*hcloud.Image, error) {
		images, err := a.client.Image.AllWithOpts(ctx, hcloud.ImageListOpts{ListOpts: hcloud.ListOpts{PerPage: pageSize}})
		if err != nil {
			return nil, failListing("read the images", err)
		}
		return images, nil
	})
}

func checkImage(images []*hcloud.Image, ref string, t *hcloud.ServerType) error {
	arch := t.Architecture
	invalid := func(format string, args ...any) error {
		return adapter.Errorf(adapter.InvalidInput, format, args...).WithField(adapter.FieldImage)
	}
	var named []string
	for _, im := range images {
		if im.Name != "" && im.Architecture == arch && !im.IsDeprecated() {
			named = append(named, im.Name)
		}
	}
	slices.Sort(named)
	available := orNone(slices.Compact(named))

	id, byID := strconv.ParseInt(ref, 10, 64)
	var other *hcloud.Image
	for _, im := range images {
		if byID == nil && im.ID != id || byID != nil && im.Name != ref {
			continue
		}
		if im.Architecture != arch {
			other = im
			continue
		}
		if im.IsDeprecated() {
			return invalid("image %q is deprecated and can no longer be used for new servers; available for %s: %s", ref, arch, available)
		}
		return nil
	}
	if other != nil {
		return invalid("image %q is built for %s, but offer %q runs on %s; available for %s: %s",
			ref, other.Architecture, t.Name, arch, arch, available)
	}
	// The API leaves deprecated images out of listings, so a deprecated
	// image lands here too.
	return invalid("image %q does not exist for architecture %s (offer %q), or is deprecated; available: %s", ref, arch, t.Name, available)
}

func orNone(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
