package acctest

import (
	"bytes"
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
// to persist.
type StateBackend struct {
	// Address is the backend's state URL, for the http backend's address.
	Address string

	mu    sync.Mutex
	state []byte
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

// Block is the terraform backend block that stores state here.
func (b *StateBackend) Block() string {
	return fmt.Sprintf("backend \"http\" {\n    address = %q\n  }\n", b.Address)
}
