package hcloud

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sync"
)

// PasswordTap serves what next serves and keeps every root_password an
// answer carries (enable_rescue's, a create's): the sentinels a test
// searches logs, diagnostics and state for, since a client must never keep
// one. A test points an account's endpoint at a server of the tap.
type PasswordTap struct {
	next      http.Handler
	mu        sync.Mutex
	passwords []string
}

// NewPasswordTap returns a tap in front of next.
func NewPasswordTap(next http.Handler) *PasswordTap { return &PasswordTap{next: next} }

func (t *PasswordTap) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	tee := &teeWriter{ResponseWriter: w}
	t.next.ServeHTTP(tee, r)
	var out struct {
		RootPassword *string `json:"root_password"`
	}
	if json.Unmarshal(tee.body.Bytes(), &out) == nil && out.RootPassword != nil && *out.RootPassword != "" {
		t.mu.Lock()
		t.passwords = append(t.passwords, *out.RootPassword)
		t.mu.Unlock()
	}
}

// Seen is every password the tap saw answered, in order.
func (t *PasswordTap) Seen() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.passwords...)
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
