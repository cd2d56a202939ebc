package robot_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// originalDescription is where the description is kept outside the
// repository, as an absolute path, and what chose it: $COMPUTE_SPECS_DIR,
// or shared/specs beside the repository.
func originalDescription(t *testing.T) (path, from string) {
	t.Helper()
	dir, from := os.Getenv("COMPUTE_SPECS_DIR"), "$COMPUTE_SPECS_DIR"
	if dir == "" {
		root, err := filepath.Abs(filepath.Join("..", "..", ".."))
		if err != nil {
			t.Fatal(err)
		}
		dir, from = filepath.Join(filepath.Dir(root), "shared", "specs"), "shared/specs beside the repository "+root
	}
	path, err := filepath.Abs(filepath.Join(dir, descriptionFile))
	if err != nil {
		t.Fatal(err)
	}
	return path, from
}

// TestDescriptionCopyIsTheOriginal holds testdata's copy of the
// description to the original, byte for byte, where the original is at
// hand, so the walk never holds the emulator to a description that has
// drifted from the one it names. A clone without the original skips,
// naming the file it looked for.
func TestDescriptionCopyIsTheOriginal(t *testing.T) {
	path, from := originalDescription(t)
	original, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		t.Skipf("no original description at %s (%s); set COMPUTE_SPECS_DIR to the directory that holds %s to compare %s with it",
			path, from, descriptionFile, descriptionCopy)
	}
	if err != nil {
		t.Fatal(err)
	}
	copied, err := os.ReadFile(descriptionCopy)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(copied, original) {
		t.Errorf("%s differs from %s (%d bytes, %d in the original): copy the original over it", descriptionCopy, path, len(copied), len(original))
	}
}
