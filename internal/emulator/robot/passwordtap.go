package robot

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sync"
)

// PasswordTap serves what next serves and keeps the password of every
// rescue activation an answer carries: the sentinels a test searches logs,
// diagnostics and state for, since a client must never keep one. A test
// points an account's endpoint at a server of the tap, in front of the
// emulator or of any handler that reaches it.
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
		Rescue struct {
			Password *string `json:"password"`
		} `json:"rescue"`
	}
	if json.Unmarshal(tee.body.Bytes(), &out) == nil && out.Rescue.Password != nil && *out.Rescue.Password != "" {
		t.mu.Lock()
		t.passwords = append(t.passwords, *out.Rescue.Password)
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
