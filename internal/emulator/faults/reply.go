package faults

import (
	"encoding/json"
	"net/http"
)

// What every emulated JSON API writes alike: an answer, an error in the
// same body as the middleware's scripted ones, and a page of a listing
// that honours the page size a test set (SetMaxPageSize).

// WriteJSON answers status with v as JSON.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}

// WriteError answers status with the API's error body (Config.ErrorBody)
// and code renamed to the API's own (Config.Codes), so the API's own errors
// and the scripted ones read alike.
func (m *Middleware) WriteError(w http.ResponseWriter, status int, code, message string) {
	if own, ok := m.cfg.Codes[code]; ok {
		code = own
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(m.cfg.ErrorBody(status, code, message))
}

// PageSize is the size of a listing's pages now: size, the API's own, or
// the smaller limit a test set so that a client must follow pages.
func (m *Middleware) PageSize(size int) int {
	if limit := m.MaxPageSize(); limit > 0 && limit < size {
		return limit
	}
	return size
}

// Page cuts page number page (the first is 1; below 1 reads as 1) of size
// items out of items, and returns the next page's number, 0 after the last.
func Page[T any](items []T, page, size int) (_ []T, next int) {
	page = max(page, 1)
	from := min((page-1)*size, len(items))
	to := min(from+size, len(items))
	if to < len(items) {
		next = page + 1
	}
	return items[from:to], next
}
