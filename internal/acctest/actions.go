package acctest

import "testing"

// SkipWithoutActions skips t, naming the binary and its version, when the
// binary the tests drive cannot run actions: Terraform before 1.14, and
// OpenTofu, which has no actions (no action blocks, no apply -invoke).
func SkipWithoutActions(t testing.TB) {
	t.Helper()
	Require(t, Actions)
}
