package acctest

import (
	"os"
	"path/filepath"
	"testing"
)

// fakeCLI writes an executable that prints out for `version`, as the binary
// at its path would.
func fakeCLI(t *testing.T, out string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "cli")
	if err := os.WriteFile(p, []byte("#!/bin/sh\ncat <<'OUT'\n"+out+"\nOUT\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestProviderHostFollowsTheBinary: an OpenTofu binary puts the provider
// under registry.opentofu.org, also when OpenTofu first warns on stdout about
// a missing CLI configuration; Terraform keeps registry.terraform.io; an
// explicit TF_ACC_PROVIDER_HOST wins over both.
func TestProviderHostFollowsTheBinary(t *testing.T) {
	tofu := fakeCLI(t, "\nWarning: Unable to open CLI configuration file\n\nThe CLI configuration file at \"/x\" does not exist.\nOpenTofu v1.12.6\non linux_amd64")
	terraform := fakeCLI(t, "Terraform v1.15.9\non linux_amd64")
	for _, c := range []struct {
		bin, preset, want string
	}{
		{tofu, "", OpenTofuHost},
		{terraform, "", TerraformHost},
		{tofu, "example.test", "example.test"},
	} {
		t.Setenv(TerraformPathEnv, c.bin)
		t.Setenv(ProviderHostEnv, c.preset)
		// Before setup has written the variable, and after.
		for _, step := range []string{"unset", "set up"} {
			if step == "set up" {
				if err := SetProviderHostFor(c.bin); err != nil {
					t.Fatal(err)
				}
			}
			if got := ProviderAddress(); got != c.want+"/seedcompute/compute" {
				t.Errorf("%s with %s=%q, %s: provider address %s, want %s/seedcompute/compute", c.bin, ProviderHostEnv, c.preset, step, got, c.want)
			}
		}
	}
	if _, err := IsOpenTofu(fakeCLI(t, "something else v1")); err == nil {
		t.Errorf("a binary that prints no Terraform or OpenTofu version line passes for one")
	}
}
