package offers

import "testing"

// TestNonZero: a monthly price or setup fee the backend does not bill is
// null, one it bills is its value.
func TestNonZero(t *testing.T) {
	if !nonZero(0).IsNull() || nonZero(54.74).ValueFloat64() != 54.74 {
		t.Errorf("nonZero(0) = %v, nonZero(54.74) = %v", nonZero(0), nonZero(54.74))
	}
}
