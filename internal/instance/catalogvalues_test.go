package instance

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestCatalogValuesNamesNoEmptyLocation: a warning about an instance
// without a location does not show location "".
func TestCatalogValuesNamesNoEmptyLocation(t *testing.T) {
	plan := &model{OfferID: types.StringValue("small"), Image: types.StringValue("ubuntu-24.04-cloud"), Location: types.StringValue("")}
	if got := catalogValues(plan); strings.Contains(got, "location") || !strings.Contains(got, `offer_id "small" and image "ubuntu-24.04-cloud"`) {
		t.Errorf("catalogValues without a location = %q", got)
	}
	plan.Location = types.StringValue("fsn1")
	if got := catalogValues(plan); !strings.Contains(got, `location "fsn1"`) {
		t.Errorf("catalogValues with a location = %q", got)
	}
}
