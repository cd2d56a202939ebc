package provider

import (
	"context"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/provider"
)

// TestDescriptionNamesEveryBackend: the provider's description names what
// each registered adapter reaches, so a new backend appears in it without
// an edit here.
func TestDescriptionNamesEveryBackend(t *testing.T) {
	var resp provider.SchemaResponse
	New("test")().Schema(context.Background(), provider.SchemaRequest{}, &resp)
	desc := resp.Schema.MarkdownDescription
	for _, d := range DefaultRegistry().Definitions() {
		if want := strings.TrimSuffix(d.Description, "."); !strings.Contains(desc, want) {
			t.Errorf("the provider's description does not name %s (%q):\n%s", d.Kind, want, desc)
		}
	}
}
