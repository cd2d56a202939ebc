package acctest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
)

// StateBackend is a Terraform http state backend on 127.0.0.1, kept in
// memory: what a remote backend (Terraform Cloud's among them) looks like to
// Terraform, which during an apply sends it the state only now and then and
// at the end. Tests read what it holds to tell what a killed apply managed
// to persist. A locking one (NewLockingStateBackend) also holds the lock an
// apply takes, as remote backends do, after the apply is gone.
type StateBackend struct {
	// Address is the backend's state URL, for the http backend's address.
	Address string

	locking bool
	mu      sync.Mutex
	state   []byte
	lock    []byte // the holder's lock info, as Terraform sent it; nil: unlocked
}

// NewLockingStateBackend starts a backend that also locks the state: the
// http backend's LOCK and UNLOCK at the state's address.
func NewLockingStateBackend(t testing.TB) *StateBackend {
	b := NewStateBackend(t)
	b.locking = true
	return b
}

// LockID is the ID of the lock held, "" when the state is unlocked.
func (b *StateBackend) LockID() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var info struct{ ID string }
	_ = json.Unmarshal(b.lock, &info)
	return info.ID
}

// NewStateBackend starts a backend that stops with the test.
func NewStateBackend(t testing.TB) *StateBackend {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("state backend: %v", err)
	}
	b := &StateBackend{Address: "http://" + ln.Addr().String() + "/state"}
	srv := &http.Server{Handler: http.HandlerFunc(b.serve)}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return b
}

func (b *StateBackend) serve(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/state" {
		http.NotFound(w, r)
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	switch r.Method {
	case http.MethodGet:
		if b.state == nil {
			w.WriteHeader(http.StatusNotFound)
			return
		}
		_, _ = w.Write(b.state)
	case http.MethodPost:
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		b.state = body
	case http.MethodDelete:
		b.state = nil
	case "LOCK":
		if !b.locking {
			http.Error(w, "this backend does not lock", http.StatusMethodNotAllowed)
			return
		}
		if b.lock != nil {
			// Terraform prints the holder's lock info from this body.
			w.WriteHeader(http.StatusLocked)
			_, _ = w.Write(b.lock)
			return
		}
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		b.lock = body
	case "UNLOCK":
		// terraform force-unlock sends no lock info; the holder sends its own.
		body, _ := io.ReadAll(r.Body)
		var info struct{ ID string }
		if len(bytes.TrimSpace(body)) > 0 && json.Unmarshal(body, &info) == nil && info.ID != "" && b.lock != nil {
			var held struct{ ID string }
			_ = json.Unmarshal(b.lock, &held)
			if held.ID != info.ID {
				w.WriteHeader(http.StatusConflict)
				_, _ = w.Write(b.lock)
				return
			}
		}
		b.lock = nil
	default:
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
	}
}

// State returns the state last written, nil before the first write.
func (b *StateBackend) State() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return bytes.Clone(b.state)
}

// Block is the terraform backend block that stores state here, and locks
// it here too when the backend locks.
func (b *StateBackend) Block() string {
	if b.locking {
		return fmt.Sprintf("backend \"http\" {\n    address        = %q\n    lock_address   = %[1]q\n    unlock_address = %[1]q\n  }\n", b.Address)
	}
	return fmt.Sprintf("backend \"http\" {\n    address = %q\n  }\n", b.Address)
}
