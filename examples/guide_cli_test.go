package examples_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/seedcompute/terraform-provider-compute/internal/acctest"
)

// guideCLIConfigs are the CLI configurations the guides show, each proven
// by TestGuideCLIConfigs with the Terraform (or OpenTofu) binary under test.
var guideCLIConfigs = map[string]bool{
	"guides/opentofu/cli.tfrc": true,
}

// TestGuideCLIConfigs runs `init` with each CLI configuration the guides
// show, its mirror path swapped for a scratch mirror that holds the
// provider under both registry hosts, offline: an include or exclude that
// missed the binary's address would send init to a registry, which fails
// here. init only installs the provider, never runs it, so the mirror's
// file is a stand-in, not a build.
func TestGuideCLIConfigs(t *testing.T) {
	t.Parallel()
	bin, err := acctest.Binary()
	if err != nil {
		t.Fatal(err)
	}
	for rel := range guideCLIConfigs {
		t.Run(filepath.Base(rel), func(t *testing.T) {
			t.Parallel()
			scratch := t.TempDir()
			mirror := filepath.Join(scratch, "mirror")
			for _, host := range []string{acctest.TerraformHost, acctest.OpenTofuHost} {
				dir := filepath.Join(mirror, host, acctest.ProviderSource, "0.0.1", runtime.GOOS+"_"+runtime.GOARCH)
				if err := os.MkdirAll(dir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, "terraform-provider-compute_v0.0.1"), []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			rc := replaceOnce(t, readExample(t, rel), `path = "/home/you/.terraform.d/plugins"`, `path = "`+mirror+`"`)
			if err := os.WriteFile(filepath.Join(scratch, "cli.tfrc"), []byte(rc), 0o600); err != nil {
				t.Fatal(err)
			}
			work := filepath.Join(scratch, "work")
			if err := os.MkdirAll(work, 0o755); err != nil {
				t.Fatal(err)
			}
			main := "terraform {\n  required_providers {\n    compute = {\n      source = \"seedcompute/compute\"\n    }\n  }\n}\n"
			if err := os.WriteFile(filepath.Join(work, "main.tf"), []byte(main), 0o600); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command(bin, "init", "-input=false", "-no-color")
			cmd.Dir = work
			cmd.Env = append(os.Environ(), "TF_CLI_CONFIG_FILE="+filepath.Join(scratch, "cli.tfrc"), "CHECKPOINT_DISABLE=1", "TF_PLUGIN_CACHE_DIR=")
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("%s init with %s failed: %v\n%s", filepath.Base(bin), rel, err, out)
			}
			if !strings.Contains(string(out), "seedcompute/compute v0.0.1") {
				t.Errorf("%s init did not install seedcompute/compute v0.0.1 from the mirror:\n%s", filepath.Base(bin), out)
			}
		})
	}
}
