package hcloud

import (
	"cmp"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

const (
	defaultPerPage = 25
	maxPerPage     = 50
)

// paging reads page and per_page. Like the API, it clamps per_page to the
// maximum (SetMaxPageSize can lower it to make tests page) rather than
// refusing a large value.
func paging(q url.Values, maxSize int) (page, perPage int, err *apiError) {
	page, perPage = 1, min(defaultPerPage, maxSize)
	if v := q.Get("page"); v != "" {
		n, convErr := strconv.Atoi(v)
		if convErr != nil || n < 1 {
			return 0, 0, invalidFields(fieldError{Name: "page", Messages: []string{"Not a valid integer."}})
		}
		page = n
	}
	if v := q.Get("per_page"); v != "" {
		n, convErr := strconv.Atoi(v)
		if convErr != nil || n < 1 {
			return 0, 0, invalidFields(fieldError{Name: "per_page", Messages: []string{"Not a valid integer."}})
		}
		perPage = min(n, maxSize)
	}
	return page, perPage, nil
}

// pageOf cuts one page out of items and describes it in meta.pagination.
func pageOf[T any](items []T, page, perPage int) ([]T, wirePagination) {
	total := len(items)
	last := max(1, (total+perPage-1)/perPage)
	p := wirePagination{Page: page, PerPage: perPage, LastPage: &last, TotalEntries: &total}
	if page > 1 {
		prev := min(page-1, last)
		p.PreviousPage = &prev
	}
	if page < last {
		next := page + 1
		p.NextPage = &next
	}
	from := min((page-1)*perPage, total)
	to := min(from+perPage, total)
	return items[from:to], p
}

// setLinkHeader adds the Link header the API sends beside meta.pagination.
func setLinkHeader(w http.ResponseWriter, r *http.Request, p wirePagination) {
	link := func(page int, rel string) string {
		q := r.URL.Query()
		q.Set("page", strconv.Itoa(page))
		q.Set("per_page", strconv.Itoa(p.PerPage))
		u := url.URL{Scheme: "http", Host: r.Host, Path: r.URL.Path, RawQuery: q.Encode()}
		return fmt.Sprintf("<%s>; rel=%q", u.String(), rel)
	}
	var parts []string
	if p.PreviousPage != nil {
		parts = append(parts, link(*p.PreviousPage, "prev"))
	}
	if p.NextPage != nil {
		parts = append(parts, link(*p.NextPage, "next"))
	}
	parts = append(parts, link(*p.LastPage, "last"))
	w.Header().Set("Link", strings.Join(parts, ", "))
}

// sortKeys maps the sort fields a list accepts to comparisons.
type sortKeys[T any] map[string]func(a, b T) int

// parseSort turns sort=field[:asc|:desc] values into one comparison.
// Without sort, lists come in id order, as from the API.
func parseSort[T any](values []string, keys sortKeys[T]) (func(a, b T) int, *apiError) {
	var cmps []func(a, b T) int
	for _, v := range values {
		field, dir, _ := strings.Cut(v, ":")
		c, ok := keys[field]
		if !ok || (dir != "" && dir != "asc" && dir != "desc") {
			names := slices.Sorted(maps.Keys(keys))
			return nil, invalidFields(fieldError{Name: "sort", Messages: []string{
				fmt.Sprintf("Must be one of: %s, optionally with :asc or :desc.", strings.Join(names, ", ")),
			}})
		}
		if dir == "desc" {
			asc := c
			c = func(a, b T) int { return asc(b, a) }
		}
		cmps = append(cmps, c)
	}
	idKey := keys["id"]
	return func(a, b T) int {
		for _, c := range cmps {
			if r := c(a, b); r != 0 {
				return r
			}
		}
		return idKey(a, b)
	}, nil
}

// catalogSortKeys are the sort keys every catalog list accepts.
func catalogSortKeys[T any](id func(T) int64, name func(T) string) sortKeys[T] {
	return sortKeys[T]{
		"id":   func(a, b T) int { return cmp.Compare(id(a), id(b)) },
		"name": func(a, b T) int { return cmp.Compare(name(a), name(b)) },
	}
}

// listing is what a listing's query asks for: which page, in which order,
// and which labels (sel, nil for all).
type listing[T any] struct {
	page, perPage int
	order         func(a, b T) int
	sel           selector
}

// readListing reads a listing's query in the order the API refuses it:
// the page, the status filter against statuses (none when nil), the sort
// among keys and, when labelled, the label_selector.
func readListing[T any](q url.Values, pageSize int, statuses []string, keys sortKeys[T], labelled bool) (listing[T], *apiError) {
	var l listing[T]
	var err *apiError
	l.page, l.perPage, err = paging(q, pageSize)
	if err == nil && statuses != nil {
		err = checkEnum("status", q["status"], statuses)
	}
	if err == nil {
		l.order, err = parseSort(q["sort"], keys)
	}
	if err == nil && labelled {
		l.sel, err = querySelector(q)
	}
	return l, err
}

// wirePage sorts found, cuts the page asked for and puts it in wire form;
// callers hold the lock the items' fields are guarded by.
func wirePage[T, W any](found []T, l listing[T], wire func(T) W) ([]W, wirePagination) {
	slices.SortFunc(found, l.order)
	items, meta := pageOf(found, l.page, l.perPage)
	return wireAll(items, wire), meta
}

// writePage answers a listing: the page under key beside meta.pagination,
// and the Link header the API sends with it.
func writePage[W any](w http.ResponseWriter, r *http.Request, key string, out []W, meta wirePagination) {
	setLinkHeader(w, r, meta)
	writeJSON(w, http.StatusOK, map[string]any{key: out, "meta": wireMeta{Pagination: meta}})
}

// wireAll is items in the form the API sends them.
func wireAll[T, W any](items []T, wire func(T) W) []W {
	out := make([]W, len(items))
	for i, item := range items {
		out[i] = wire(item)
	}
	return out
}
