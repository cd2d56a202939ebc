package acctest

import "testing"

// TestFeatureHas: a release has a feature from its first release on,
// pre-releases of that one included; OpenTofu has it only where the
// feature names an OpenTofu release.
func TestFeatureHas(t *testing.T) {
	for _, c := range []struct {
		line string
		f    Feature
		want bool
	}{
		{"Terraform v1.11.4", ImportByIdentity, false},
		{"Terraform v1.12.0", ImportByIdentity, true},
		{"Terraform v1.15.9", ImportByIdentity, true},
		{"Terraform v1.13.5", Query, false},
		{"Terraform v1.14.0-rc1", Query, true},
		{"Terraform v1.15.9", Query, true},
		{"OpenTofu v1.12.6", ImportByIdentity, true},
		{"OpenTofu v1.11.0", ImportByIdentity, false},
		{"OpenTofu v1.12.6", Query, false},
		{"Terraform v1.13.5", Actions, false},
		{"Terraform v1.14.0", Actions, true},
		{"OpenTofu v1.12.6", Actions, false},
		{"Terraform vbroken", Query, false},
	} {
		if got, why := has(c.line, c.f); got != c.want || (!got && why == "") {
			t.Errorf("has(%q, %s) = %v (%q), want %v with a reason when false", c.line, c.f.What, got, why, c.want)
		}
	}
}
