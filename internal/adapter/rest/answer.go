package rest

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Answer is an error answer of the API (status 300 and above), as the
// backend's Failed reads it. Whatever repeats a credential in its status
// line or body is withheld already.
type Answer struct {
	Method, Route string // the request's method and route template
	Status        int
	// StatusLine is Go's resp.Status, "500 VM 100 is locked (clone)":
	// some APIs (PVE) put their message in its reason phrase.
	StatusLine string
	Header     http.Header
	Body       []byte
}

// RetryAfter is the answer's Retry-After header in seconds, which an API or
// a proxy in front of it may send; zero when it has none, or none that is
// a positive number of seconds.
func (a Answer) RetryAfter() time.Duration {
	secs, err := strconv.Atoi(strings.TrimSpace(a.Header.Get("Retry-After")))
	if err != nil || secs <= 0 {
		return 0
	}
	return time.Duration(secs) * time.Second
}

// withheldText stands for a credential an error answer repeated.
const withheldText = "(withheld)"

// withhold replaces in s every occurrence of each secret, as it is and as
// a JSON string carries it: a proxy or an API error may echo what it was
// sent, and the backend's reading of the answer reaches diagnostics.
func withhold(s string, secrets []string) string {
	for _, v := range secrets {
		if v == "" {
			continue
		}
		for _, form := range echoes(v) {
			s = strings.ReplaceAll(s, form, withheldText)
		}
	}
	return s
}

// echoes are the forms a secret takes in an answer: itself and its JSON
// string's content, with and without HTML escaping (Go's encoder escapes
// <, > and & unless told not to).
func echoes(v string) []string {
	out := []string{v}
	if b, err := json.Marshal(v); err == nil {
		out = append(out, string(b[1:len(b)-1]))
	}
	var plain strings.Builder
	enc := json.NewEncoder(&plain)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) == nil {
		s := strings.TrimSuffix(plain.String(), "\n")
		out = append(out, s[1:len(s)-1])
	}
	return out
}
