package tfdiag_test

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
)

// TestAddRefusalKeepsHiddenValuesOffTheirLine: only a value the messages
// repeat whole keeps its attribute; a secret and a URL with a hidden part go
// on the resource, whose line Terraform may print without harm.
func TestAddRefusalKeepsHiddenValuesOffTheirLine(t *testing.T) {
	at := path.Root("hetzner_cloud").AtName("endpoint")
	for _, c := range []struct {
		value       string
		secret      bool
		onAttribute bool
	}{
		{"http://api.example/v1", false, true},
		{"fsn1", false, true},
		{"https://user:pw@api.example/v1", false, false},
		{"https://api.example/v1?token=x", false, false},
		{"env://HCLOUD_TOKEN", true, false},
		{"pasted-secret", true, false},
	} {
		var diags diag.Diagnostics
		tfdiag.AddRefusal(&diags, at, c.value, c.secret, "Unable to use account setting", "refused")
		if len(diags) != 1 {
			t.Fatalf("AddRefusal(%q) added %d diagnostics, want 1", c.value, len(diags))
		}
		_, onAttribute := diags[0].(diag.DiagnosticWithPath)
		if onAttribute != c.onAttribute {
			t.Errorf("AddRefusal(%q, secret=%v): on its attribute = %v, want %v", c.value, c.secret, onAttribute, c.onAttribute)
		}
	}
}
