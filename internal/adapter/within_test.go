package adapter

import (
	"errors"
	"testing"
	"time"
)

// TestWithin: the prefix goes before the message, and code, field,
// retry-after and the original error survive it.
func TestWithin(t *testing.T) {
	if Within("claim server 321", nil) != nil {
		t.Error("Within of nil is not nil")
	}
	inner := errors.New("HTTP 503")
	c := &Error{Code: RateLimited, Field: "offer_id", RetryAfter: 3 * time.Second, Err: inner, Message: "slow down"}
	err := Within("claim server 321", c)
	if got := err.(*Error).Message; got != "claim server 321: slow down" {
		t.Errorf("message: %v", err)
	}
	if CodeOf(err) != RateLimited || FieldOf(err) != "offer_id" || RetryAfterOf(err) != 3*time.Second || !errors.Is(err, inner) {
		t.Errorf("lost a part of the classified error: %+v", err)
	}
	if c.Message != "slow down" {
		t.Error("Within changed the error it was given")
	}
	if plain := Within("read", errors.New("boom")); CodeOf(plain) != Transient {
		t.Errorf("an unclassified error: %v, want Transient", plain)
	}
}
