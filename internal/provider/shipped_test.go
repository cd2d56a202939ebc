//go:build !testbackends

package provider

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestShippedBackends: a build without the testbackends tag, as a release
// and make docs are, registers exactly the shipped backends, and the
// generated docs offer no backend kept in the tests. A tag leaking into
// such a build (through GOFLAGS, or make build) fails here.
func TestShippedBackends(t *testing.T) {
	if got, want := DefaultRegistry().Kinds(), []string{"hcloud", "proxmox", "robot"}; !slices.Equal(got, want) {
		t.Errorf("the registry of a build without the testbackends tag holds %v, want %v", got, want)
	}
	seen := 0
	err := filepath.WalkDir(filepath.Join("..", "..", "docs"), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		seen++
		for _, s := range []string{"toy_cloud", "Toy Cloud", "toycloud"} {
			if strings.Contains(string(b), s) {
				t.Errorf("%s names %q, a backend kept in the tests", path, s)
			}
		}
		return nil
	})
	if err != nil || seen == 0 {
		t.Fatalf("the docs were not read (%d files): %v", seen, err)
	}
}
