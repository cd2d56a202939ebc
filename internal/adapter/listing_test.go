package adapter_test

import (
	"errors"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// A listing's NotFound proves a wrong endpoint, never absence, on the
// backend's own endpoint setting; other codes pass unchanged.
func TestListingFailed(t *testing.T) {
	err := adapter.ListingFailed(&adapter.Error{Code: adapter.NotFound, Message: "list: not found"}, "api_url", "the Test API", "https://api.example.com")
	var e *adapter.Error
	if !errors.As(err, &e) || e.Code != adapter.InvalidConfig || e.Field != "api_url" ||
		e.Message != "list: not found; the endpoint does not serve the Test API: check that it is its base URL, such as https://api.example.com" {
		t.Errorf("got %#v", err)
	}
	if err := adapter.ListingFailed(&adapter.Error{Code: adapter.Transient}, "api_url", "x", "y"); adapter.CodeOf(err) != adapter.Transient {
		t.Errorf("got %v", err)
	}
}
