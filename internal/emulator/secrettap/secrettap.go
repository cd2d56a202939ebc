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
