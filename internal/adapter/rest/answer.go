package rest

import (
	"bytes"
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

// withhold replaces in s every occurrence of each secret: a proxy or an
// API error may echo what it was sent, and the backend's reading of the
// answer reaches diagnostics.
func withhold(s string, secrets []string) string {
	for _, v := range secrets {
		if v != "" {
			s = strings.ReplaceAll(s, v, withheldText)
		}
	}
	return s
}

// withholdBody is withhold for a body. A JSON body has its strings
// withheld after decoding, so that an escaped echo is found too and a
// short credential that happens to spell a key or a number leaves the
// document readable; any other body is withheld as text.
func withholdBody(body []byte, secrets []string) []byte {
	var doc any
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if dec.Decode(&doc) != nil || dec.More() {
		return []byte(withhold(string(body), secrets))
	}
	out, err := json.Marshal(withheldIn(doc, secrets))
	if err != nil {
		return []byte(withhold(string(body), secrets))
	}
	return out
}

// withheldIn is a decoded JSON value with withhold applied to its string
// values; keys are the API's own names.
func withheldIn(v any, secrets []string) any {
	switch v := v.(type) {
	case string:
		return withhold(v, secrets)
	case []any:
		for i := range v {
			v[i] = withheldIn(v[i], secrets)
		}
	case map[string]any:
		for k, x := range v {
			v[k] = withheldIn(x, secrets)
		}
	}
	return v
}
