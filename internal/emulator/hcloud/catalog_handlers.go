package hcloud

import (
	"cmp"
	"net/http"
	"net/url"
	"slices"
)

// listCatalog serves a paginated catalog list: filter by exact name, sort
// by the keys given, and page like every other list.
func listCatalog[T any](e *Emulator, w http.ResponseWriter, r *http.Request, key string, all []T,
	keys sortKeys[T], name func(T) string, keep func(url.Values, T) bool, extra map[string]any) {
	q := r.URL.Query()
	l, err := readListing(q, e.pageSize(), nil, keys, false)
	if err != nil {
		writeError(w, err)
		return
	}
	var found []T
	for _, item := range all {
		if n := q.Get("name"); n != "" && name(item) != n {
			continue
		}
		if keep != nil && !keep(q, item) {
			continue
		}
		found = append(found, item)
	}
	slices.SortStableFunc(found, l.order)
	items, meta := pageOf(found, l.page, l.perPage)
	body := map[string]any{key: items, "meta": wireMeta{Pagination: meta}}
	for k, v := range extra {
		body[k] = v
	}
	setLinkHeader(w, r, meta)
	writeJSON(w, http.StatusOK, body)
}

// getCatalog serves GET /<kind>/{id}.
func getCatalog[T any](w http.ResponseWriter, r *http.Request, kind, key string, all []T, id func(T) int64) {
	want, _ := pathID(r, "id")
	for _, item := range all {
		if id(item) == want {
			writeJSON(w, http.StatusOK, map[string]any{key: item})
			return
		}
	}
	writeError(w, notFound(kind, want))
}

func (e *Emulator) serverTypes() []wireServerType {
	return wireAll(e.cat.types, func(x *serverType) wireServerType { return x.wire })
}

func (e *Emulator) locations() []wireLocation {
	return wireAll(e.cat.locations, func(x *location) wireLocation { return x.wire })
}

func (e *Emulator) datacenters() []wireDatacenter {
	return wireAll(e.cat.datacenters, func(x *datacenter) wireDatacenter { return x.wire })
}

func (e *Emulator) images() []wireImage {
	return wireAll(e.cat.images, func(x *image) wireImage { return x.wire })
}

func typeID(t wireServerType) int64    { return t.ID }
func typeName(t wireServerType) string { return t.Name }
func locID(l wireLocation) int64       { return l.ID }
func locName(l wireLocation) string    { return l.Name }
func dcID(d wireDatacenter) int64      { return d.ID }
func dcName(d wireDatacenter) string   { return d.Name }
func imageID(i wireImage) int64        { return i.ID }
func imageName(i wireImage) string     { return *i.Name }

func (e *Emulator) listServerTypes(w http.ResponseWriter, r *http.Request) {
	listCatalog(e, w, r, "server_types", e.serverTypes(), catalogSortKeys(typeID, typeName), typeName, nil, nil)
}

func (e *Emulator) getServerType(w http.ResponseWriter, r *http.Request) {
	getCatalog(w, r, "server_type", "server_type", e.serverTypes(), typeID)
}

func (e *Emulator) listLocations(w http.ResponseWriter, r *http.Request) {
	listCatalog(e, w, r, "locations", e.locations(), catalogSortKeys(locID, locName), locName, nil, nil)
}

func (e *Emulator) getLocation(w http.ResponseWriter, r *http.Request) {
	getCatalog(w, r, "location", "location", e.locations(), locID)
}

func (e *Emulator) listDatacenters(w http.ResponseWriter, r *http.Request) {
	// The API recommends a datacenter for new servers; the first is fsn1-dc14.
	listCatalog(e, w, r, "datacenters", e.datacenters(), catalogSortKeys(dcID, dcName), dcName, nil,
		map[string]any{"recommendation": e.cat.datacenters[0].wire.ID})
}

func (e *Emulator) getDatacenter(w http.ResponseWriter, r *http.Request) {
	getCatalog(w, r, "datacenter", "datacenter", e.datacenters(), dcID)
}

var (
	imageTypes    = []string{"system", "app", "snapshot", "backup"}
	imageStatuses = []string{"available", "creating", "unavailable"}
	architectures = []string{"x86", "arm"}
)

// listImages filters like the API: deprecated images only with
// include_deprecated=true, and by type, status, architecture and labels.
func (e *Emulator) listImages(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	err := checkEnum("type", q["type"], imageTypes)
	if err == nil {
		err = checkEnum("status", q["status"], imageStatuses)
	}
	if err == nil {
		err = checkEnum("architecture", q["architecture"], architectures)
	}
	var includeDeprecated bool
	if err == nil {
		includeDeprecated, err = queryBool("include_deprecated", q.Get("include_deprecated"))
	}
	var sel selector
	if err == nil {
		sel, err = querySelector(q)
	}
	if err != nil {
		writeError(w, err)
		return
	}
	keep := func(q url.Values, im wireImage) bool {
		return (includeDeprecated || im.Deprecated == nil) &&
			(len(q["type"]) == 0 || slices.Contains(q["type"], im.Type)) &&
			(len(q["status"]) == 0 || slices.Contains(q["status"], im.Status)) &&
			(len(q["architecture"]) == 0 || slices.Contains(q["architecture"], im.Architecture)) &&
			len(q["bound_to"]) == 0 && sel.matches(im.Labels)
	}
	// Images sort by creation time too; created is RFC 3339 in UTC, so the
	// strings order as the times do.
	keys := catalogSortKeys(imageID, imageName)
	keys["created"] = func(a, b wireImage) int { return cmp.Compare(a.Created, b.Created) }
	listCatalog(e, w, r, "images", e.images(), keys, imageName, keep, nil)
}

func (e *Emulator) getImage(w http.ResponseWriter, r *http.Request) {
	getCatalog(w, r, "image", "image", e.images(), imageID)
}
