package hcloud

import (
	"cmp"
	"math/big"
	"slices"
	"strconv"
)

// The catalog is fixed: a realistic slice of what Hetzner Cloud sold in
// 2025, with one deprecated server type, one image line that is deprecated,
// and one type sold out in one location (cx32 in fsn1), so that callers
// have to cope with "supported but not available".

type location struct {
	wire wireLocation
	dc   *datacenter
	// priceFactor scales EU net prices; traffic terms differ by region.
	priceFactor string
	includedTB  int64
	pricePerTB  string
}

type datacenter struct {
	wire wireDatacenter
	loc  *location
}

type serverType struct {
	wire wireServerType
	// supported and available are location names; available is a subset.
	supported []string
	available []string
}

type image struct {
	wire wireImage
	name string
}

type catalog struct {
	locations   []*location
	datacenters []*datacenter
	types       []*serverType
	images      []*image
}

const tebibyte = int64(1) << 40

var locationTable = []struct {
	id                                     int64
	name, description, country, city, zone string
	lat, lon                               float64
	dcID                                   int64
	dcName, dcDescription                  string
	priceFactor                            string
	includedTB                             int64
	pricePerTB                             string
}{
	{1, "fsn1", "Falkenstein DC Park 1", "DE", "Falkenstein", "eu-central", 50.47612, 12.370071, 4, "fsn1-dc14", "Falkenstein 1 virtual DC 14", "1", 20, "1.0000"},
	{2, "nbg1", "Nuremberg DC Park 1", "DE", "Nuremberg", "eu-central", 49.452102, 11.076665, 2, "nbg1-dc3", "Nuremberg 1 virtual DC 3", "1", 20, "1.0000"},
	{3, "hel1", "Helsinki DC Park 1", "FI", "Helsinki", "eu-central", 60.169855, 24.938379, 3, "hel1-dc2", "Helsinki 1 virtual DC 2", "1", 20, "1.0000"},
	{4, "ash", "Ashburn, VA", "US", "Ashburn, VA", "us-east", 39.045821, -77.487073, 5, "ash-dc1", "Ashburn virtual DC 1", "1.15", 1, "1.2000"},
	{5, "hil", "Hillsboro, OR", "US", "Hillsboro, OR", "us-west", 45.54222, -122.951924, 6, "hil-dc1", "Hillsboro virtual DC 1", "1.15", 1, "1.2000"},
	{6, "sin", "Singapore", "SG", "Singapore", "ap-southeast", 1.283333, 103.833333, 7, "sin-dc1", "Singapore virtual DC 1", "1.6", 1, "7.4000"},
}

var (
	euLocations  = []string{"fsn1", "nbg1", "hel1"}
	allLocations = []string{"fsn1", "nbg1", "hel1", "ash", "hil", "sin"}
)

var serverTypeTable = []struct {
	id                   int64
	name, cpu, arch      string
	cores                int
	memory               float64
	disk                 int
	hourly, monthly      string // EU net prices in EUR
	supported, soldOutIn []string
	deprecated           bool
}{
	{1, "cx11", "shared", "x86", 1, 2, 20, "0.0052", "3.2900", euLocations, euLocations, true},
	{22, "cpx11", "shared", "x86", 2, 2, 40, "0.0070", "4.3500", allLocations, nil, false},
	{23, "cpx21", "shared", "x86", 3, 4, 80, "0.0121", "7.5500", allLocations, nil, false},
	{24, "cpx31", "shared", "x86", 4, 8, 160, "0.0218", "13.6000", allLocations, nil, false},
	{45, "cax11", "shared", "arm", 2, 4, 40, "0.0060", "3.7900", euLocations, nil, false},
	{93, "cax21", "shared", "arm", 4, 8, 80, "0.0104", "6.4900", euLocations, nil, false},
	{96, "ccx13", "dedicated", "x86", 2, 8, 80, "0.0200", "12.4900", allLocations, nil, false},
	{104, "cx22", "shared", "x86", 2, 4, 40, "0.0060", "3.7900", euLocations, nil, false},
	{105, "cx32", "shared", "x86", 4, 8, 80, "0.0109", "6.8000", euLocations, []string{"fsn1"}, false},
	{106, "cx42", "shared", "x86", 8, 16, 160, "0.0263", "16.4000", euLocations, nil, false},
	{107, "cx52", "shared", "x86", 16, 32, 320, "0.0519", "32.4000", euLocations, nil, false},
}

var imageTable = []struct {
	x86ID, armID                   int64
	name, description, flavor, ver string
	created                        string
	deprecated, unavailableAfter   string
}{
	{45557056, 103908070, "ubuntu-20.04", "Ubuntu 20.04", "ubuntu", "20.04", "2020-04-23T12:00:00Z", "2025-05-31T00:00:00Z", "2025-08-31T00:00:00Z"},
	{67794396, 103907373, "ubuntu-22.04", "Ubuntu 22.04", "ubuntu", "22.04", "2022-04-21T13:32:38Z", "", ""},
	{161547269, 161547270, "ubuntu-24.04", "Ubuntu 24.04", "ubuntu", "24.04", "2024-04-25T13:26:27Z", "", ""},
	{114690387, 114690389, "debian-12", "Debian 12", "debian", "12", "2023-06-13T06:00:02Z", "", ""},
	{200036599, 200036600, "fedora-41", "Fedora 41", "fedora", "41", "2024-10-29T12:00:00Z", "", ""},
	{76766499, 76766502, "rocky-9", "Rocky Linux 9", "rocky", "9", "2022-07-14T08:00:00Z", "", ""},
}

var cx11Deprecation = &wireDeprecation{Announced: "2024-06-06T00:00:00Z", UnavailableAfter: "2024-09-06T00:00:00Z"}

func newCatalog() *catalog {
	c := &catalog{}
	for _, l := range locationTable {
		loc := &location{
			wire: wireLocation{ID: l.id, Name: l.name, Description: l.description, Country: l.country,
				City: l.city, Latitude: l.lat, Longitude: l.lon, NetworkZone: l.zone},
			priceFactor: l.priceFactor,
			includedTB:  l.includedTB,
			pricePerTB:  l.pricePerTB,
		}
		dc := &datacenter{loc: loc, wire: wireDatacenter{ID: l.dcID, Name: l.dcName, Description: l.dcDescription, Location: loc.wire}}
		loc.dc = dc
		c.locations = append(c.locations, loc)
		c.datacenters = append(c.datacenters, dc)
	}
	for _, t := range serverTypeTable {
		st := &serverType{supported: t.supported}
		for _, l := range t.supported {
			if !slices.Contains(t.soldOutIn, l) {
				st.available = append(st.available, l)
			}
		}
		category := "Shared vCPU"
		if t.cpu == "dedicated" {
			category = "Dedicated vCPU"
		}
		st.wire = wireServerType{
			ID: t.id, Name: t.name, Description: upper(t.name), Category: category,
			Cores: t.cores, Memory: t.memory, Disk: t.disk, Deprecated: t.deprecated,
			StorageType: "local", CPUType: t.cpu, Architecture: t.arch,
			Prices:    []wireServerTypePrice{},
			Locations: []wireServerTypeLocation{},
		}
		if t.deprecated {
			st.wire.Deprecation = cx11Deprecation
		}
		for _, loc := range c.locations {
			if !slices.Contains(t.supported, loc.wire.Name) {
				continue
			}
			avail := slices.Contains(st.available, loc.wire.Name)
			st.wire.Prices = append(st.wire.Prices, wireServerTypePrice{
				Location:          loc.wire.Name,
				PriceHourly:       price(t.hourly, loc.priceFactor),
				PriceMonthly:      price(t.monthly, loc.priceFactor),
				IncludedTraffic:   loc.includedTB * tebibyte,
				PricePerTBTraffic: price(loc.pricePerTB, "1"),
			})
			st.wire.Locations = append(st.wire.Locations, wireServerTypeLocation{
				ID: loc.wire.ID, Name: loc.wire.Name, Deprecation: st.wire.Deprecation,
				Recommended: avail, Available: avail,
			})
		}
		c.types = append(c.types, st)
	}
	for _, dc := range c.datacenters {
		ids := wireDatacenterTypeIDs{Supported: []int64{}, Available: []int64{}, AvailableForMigration: []int64{}}
		for _, st := range c.types {
			if slices.Contains(st.supported, dc.loc.wire.Name) {
				ids.Supported = append(ids.Supported, st.wire.ID)
			}
			if slices.Contains(st.available, dc.loc.wire.Name) {
				ids.Available = append(ids.Available, st.wire.ID)
				ids.AvailableForMigration = append(ids.AvailableForMigration, st.wire.ID)
			}
		}
		dc.wire.ServerTypes = ids
	}
	for _, im := range imageTable {
		for _, arch := range []string{"x86", "arm"} {
			id := im.x86ID
			if arch == "arm" {
				id = im.armID
			}
			name, ver := im.name, im.ver
			w := wireImage{
				ID: id, Type: "system", Status: "available", Name: &name, Description: im.description,
				DiskSize: 5, Created: im.created, OSFlavor: im.flavor, OSVersion: &ver, RapidDeploy: true,
				Labels: map[string]string{}, Architecture: arch,
			}
			if im.deprecated != "" {
				dep := im.deprecated
				w.Deprecated = &dep
				w.Deprecation = &wireDeprecation{Announced: im.deprecated, UnavailableAfter: im.unavailableAfter}
			}
			c.images = append(c.images, &image{wire: w, name: im.name})
		}
	}
	slices.SortFunc(c.images, func(a, b *image) int { return cmp.Compare(a.wire.ID, b.wire.ID) })
	return c
}

// price turns an EU net price into the API's price object: net with ten
// decimals and gross (19% VAT) with sixteen, as the real API prints them.
func price(eurNet, factor string) wirePrice {
	net, _ := new(big.Rat).SetString(eurNet)
	f, _ := new(big.Rat).SetString(factor)
	net.Mul(net, f)
	gross := new(big.Rat).Mul(net, big.NewRat(119, 100))
	return wirePrice{Net: net.FloatString(10), Gross: gross.FloatString(16)}
}

func upper(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'a' <= c && c <= 'z' {
			b[i] = c - 'a' + 'A'
		}
	}
	return string(b)
}

// idOrName reports whether ref names the object with this id or name.
func idOrName(ref string, id int64, name string) bool {
	if n, err := strconv.ParseInt(ref, 10, 64); err == nil {
		return n == id
	}
	return ref == name
}

func (c *catalog) serverType(ref string) *serverType {
	for _, t := range c.types {
		if idOrName(ref, t.wire.ID, t.wire.Name) {
			return t
		}
	}
	return nil
}

func (c *catalog) location(ref string) *location {
	for _, l := range c.locations {
		if idOrName(ref, l.wire.ID, l.wire.Name) {
			return l
		}
	}
	return nil
}

func (c *catalog) datacenter(ref string) *datacenter {
	for _, d := range c.datacenters {
		if idOrName(ref, d.wire.ID, d.wire.Name) {
			return d
		}
	}
	return nil
}

// image resolves an id, or a name for the given architecture, the way the
// API picks the arm or x86 build of a system image from the server type.
func (c *catalog) image(ref, arch string) *image {
	if n, err := strconv.ParseInt(ref, 10, 64); err == nil {
		for _, im := range c.images {
			if im.wire.ID == n {
				return im
			}
		}
		return nil
	}
	for _, im := range c.images {
		if im.name == ref && (arch == "" || im.wire.Architecture == arch) {
			return im
		}
	}
	return nil
}
