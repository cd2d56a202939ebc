package resttest

import (
	"slices"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/rest"
)

// TestNotFoundCodes: the not-found codes of a table are those it places as
// NotFound, and no code that merely looks like one.
func TestNotFoundCodes(t *testing.T) {
	table := rest.Codes{Codes: map[string]adapter.Code{"server_not_found": adapter.NotFound, "gone": adapter.NotFound,
		"not_found_here": adapter.InvalidInput, "auth_failed": adapter.AccessDenied}}
	codes := NotFoundCodes(table)
	if want := []string{"gone", "server_not_found"}; !slices.Equal(codes, want) {
		t.Fatalf("NotFoundCodes = %v, want %v", codes, want)
	}
}
