package robot_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// originalDescription is where the description is kept outside the
// repository: $COMPUTE_SPECS_DIR, or shared/specs beside the repository.
func originalDescription(t *testing.T) string {
	t.Helper()
	if dir := os.Getenv("COMPUTE_SPECS_DIR"); dir != "" {
		return filepath.Join(dir, descriptionFile)
	}
	root, err := filepath.Abs(filepath.Join("..", "..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(filepath.Dir(root), "shared", "specs", descriptionFile)
}

// TestDescriptionCopyIsTheOriginal holds testdata's copy of the
// description to the original, byte for byte, where the original is at
// hand, so the walk never holds the emulator to a description that has
// drifted from the one it names.
func TestDescriptionCopyIsTheOriginal(t *testing.T) {
	path := originalDescription(t)
	original, err := os.ReadFile(path)
	if os.IsNotExist(err) {
		t.Skipf("the original description is not here (%s); set COMPUTE_SPECS_DIR to its directory to compare %s with it", path, descriptionCopy)
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
