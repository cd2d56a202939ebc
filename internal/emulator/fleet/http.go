package fleet

import (
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/seedcompute/terraform-provider-compute/internal/emulator/faults"
)

// Item is the handler of a route below a server ("/servers/{id}"): h runs
// with the path's server and the fleet locked, so it may change the
// server; an id the fleet does not hold is answered 404 not_found in the
// API's error body, as the middleware writes its scripted ones (an API
// with a not-found code of its own renames it in faults.Config.Codes).
func (f *Fleet[S, P]) Item(h func(w http.ResponseWriter, r *http.Request, s P)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id, _ := strconv.Atoi(r.PathValue("id"))
		f.mu.Lock()
		defer f.mu.Unlock()
		if s, ok := f.byID[id]; ok {
			h(w, r, s)
			return
		}
		f.api.WriteError(w, http.StatusNotFound, "not_found", f.cfg.Noun+" "+r.PathValue("id")+" not found")
	}
}

// Listed reads, in id order, the servers selector selects ("key=value"
// selects those with that label; a selector without "=" selects all), and
// returns page number page of them (the first is 1) in pages of the
// middleware's size, and the next page's number, 0 after the last. Every
// selected server is read, on whichever page it falls.
func (f *Fleet[S, P]) Listed(selector string, page int) (_ []S, next int) {
	key, value, byLabel := strings.Cut(selector, "=")
	f.mu.Lock()
	defer f.mu.Unlock()
	all := []S{}
	for _, id := range slices.Sorted(maps.Keys(f.byID)) {
		if s := f.byID[id]; !byLabel || s.machine().Labels[key] == value {
			all = append(all, read(s))
		}
	}
	return faults.Page(all, page, f.api.PageSize(f.cfg.PageSize))
}
