package rest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"syscall"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Each branch of the frame, in its order: an error of the backend's own
// answer type reaches answer even wrapped; a Failure reaches the backend's
// reading of it; what is unknown is Transient, never NotFound.
func TestClassifyFrame(t *testing.T) {
	answer := func(e *answerError) *adapter.Error {
		return &adapter.Error{Code: adapter.NotFound, Message: fmt.Sprintf("answer %d", e.Status)}
	}
	pinned := func(*Failure) error { return adapter.Errorf(adapter.InvalidConfig, "pinned") }
	failure := &Failure{Kind: Unreached, Route: "/a", Err: errors.New("boom"), api: &api{name: "the Test API", endpoint: "http://127.0.0.1:9"}}
	kept := adapter.Errorf(adapter.Conflict, "kept")
	for _, c := range []struct {
		name    string
		err     error
		failure func(*Failure) error
		code    adapter.Code
		says    string
	}{
		{"classified", fmt.Errorf("x: %w", kept), nil, adapter.Conflict, "kept"},
		{"answer", fmt.Errorf("read: %w", &answerError{Answer{Status: 404}}), nil, adapter.NotFound, "answer 404"},
		{"failure", failure, nil, adapter.Transient, "the Test API at http://127.0.0.1:9 could not be reached for /a: transport error"},
		{"failure read by the backend", failure, pinned, adapter.InvalidConfig, "pinned"},
		{"cancel", context.Canceled, nil, adapter.Transient, "canceled or its deadline passed before the Test API answered"},
		{"unknown", errors.New("what"), nil, adapter.Transient, "unexpected failure talking to the Test API: transport error"},
		{"refused", syscall.ECONNREFUSED, nil, adapter.Transient, "connection refused"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := Classify(c.err, "the Test API", answer, c.failure)
			var e *adapter.Error
			if !errors.As(err, &e) || e.Code != c.code || !strings.Contains(e.Message, c.says) {
				t.Errorf("got %v, want %s saying %q", err, c.code, c.says)
			}
			if c.name == "refused" && !adapter.Unreachable(err) {
				t.Errorf("a refused connection is not marked unreachable: %v", err)
			}
		})
	}
	if Classify(nil, "x", answer, nil) != nil {
		t.Error("nil is classified")
	}
}
