// Package secrettap keeps the secrets an emulator's answers hand out (a
// rescue system's password, a server's root password), so that a test can
// search logs, diagnostics and state for them: a client must never keep
// one. Each emulator says where its answers carry the secret; the tap is
// the one copy of the serving and keeping.
//
// It imports the standard library only.
package secrettap

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sync"
)

// Tap serves what next serves and keeps every secret pick finds in an
// answer's body. A test points an account's endpoint at a server of the
// tap, in front of the emulator or of any handler that reaches it.
type Tap struct {
	next    http.Handler
	pick    func(body []byte) string
	mu      sync.Mutex
	secrets []string
}

// New returns a tap in front of next; pick returns the secret a body
// carries, "" when none.
func New(next http.Handler, pick func(body []byte) string) *Tap {
	return &Tap{next: next, pick: pick}
}

// NewJSON returns a tap in front of next that keeps the string a JSON
// answer holds at path (object keys from the top): where every emulator's
// secret stands, so that each names only the path.
func NewJSON(next http.Handler, path ...string) *Tap {
	return New(next, func(body []byte) string { return jsonString(body, path) })
}

// jsonString is the string at path in body, "" when the body is no JSON
// object or holds no string there.
func jsonString(body []byte, path []string) string {
	var v any
	if json.Unmarshal(body, &v) != nil {
		return ""
	}
	for _, key := range path {
		obj, ok := v.(map[string]any)
		if !ok {
			return ""
		}
		v = obj[key]
	}
	s, _ := v.(string)
	return s
}

func (t *Tap) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	tee := &teeWriter{ResponseWriter: w}
	t.next.ServeHTTP(tee, r)
	if s := t.pick(tee.body.Bytes()); s != "" {
		t.mu.Lock()
		t.secrets = append(t.secrets, s)
		t.mu.Unlock()
	}
}

// Seen is every secret the tap saw answered, in order.
func (t *Tap) Seen() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.secrets...)
}

// teeWriter keeps a copy of the body it writes.
type teeWriter struct {
	http.ResponseWriter
	body bytes.Buffer
}

func (w *teeWriter) Write(b []byte) (int, error) {
	w.body.Write(b)
	return w.ResponseWriter.Write(b)
}
