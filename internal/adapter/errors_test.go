package adapter

import (
	"errors"
	"fmt"
	"testing"
)

// A caller words its own message from a classified error's, and names a
// field on it, whether the error comes bare or wrapped; an unclassified
// error is never taken for a code it does not carry (least of all
// NotFound).
func TestMessageOfAndWithFieldOf(t *testing.T) {
	classified := Errorf(InvalidInput, "must be absolute")
	wrapped := fmt.Errorf("path: %w", classified)
	if got := MessageOf(wrapped); got != "must be absolute" {
		t.Errorf("MessageOf(wrapped) = %q, want the classified message", got)
	}
	if e := WithFieldOf(wrapped, "files[0].path"); e != classified || e.Field != "files[0].path" || e.Code != InvalidInput {
		t.Errorf("WithFieldOf(wrapped) = %+v, want the classified error naming the field", e)
	}
	plain := errors.New("boom")
	if got := MessageOf(plain); got != "boom" {
		t.Errorf("MessageOf(plain) = %q, want its text", got)
	}
	e := WithFieldOf(plain, "endpoint")
	if e.Code != Transient || e.Field != "endpoint" || !errors.Is(e, plain) || e.Message != "boom" {
		t.Errorf("WithFieldOf(plain) = %+v, want a Transient error naming endpoint that wraps it", e)
	}
}
