package acctest

import (
	"fmt"
	"strings"
	"testing"

	version "github.com/hashicorp/go-version"
)

// Feature is something of the CLI a test needs that older releases lack,
// with the first Terraform and OpenTofu releases that have it.
type Feature struct {
	What      string // what the test needs, for the skip message
	Terraform string // the first Terraform release with it
	// OpenTofu is the first OpenTofu release with it; "" when no release
	// the tests know of has it.
	OpenTofu string
}

// The features of Terraform 1.12 and 1.14 the identity and list resource
// tests need. OpenTofu 1.12 imports by identity too, but has no list
// resources and no query command (it refuses a `list` block).
var (
	ImportByIdentity = Feature{What: "import blocks that name a resource by its identity", Terraform: "1.12.0", OpenTofu: "1.12.0"}
	Query            = Feature{What: "list resources and the query command", Terraform: "1.14.0"}
	// Actions are the provider actions: action blocks, apply -invoke and
	// action_trigger. OpenTofu ignores the provider's action schemas.
	Actions = Feature{What: "provider actions (action blocks, apply -invoke, action_trigger)", Terraform: "1.14.0"}
)

// Require skips t, naming the binary, its version and what it lacks, when
// the binary the tests drive does not have f.
func Require(t testing.TB, f Feature) {
	t.Helper()
	if ok, line, bin, why := check(t, f); !ok {
		t.Skipf("%s (%s) lacks %s: %s", line, bin, f.What, why)
	}
}

// Supports reports whether the binary the tests drive has f, for a check
// that only such a binary can make in a test that runs under any.
func Supports(t testing.TB, f Feature) bool {
	t.Helper()
	ok, _, _, _ := check(t, f)
	return ok
}

// check asks the binary the tests drive for its version and whether it has
// f, and why not.
func check(t testing.TB, f Feature) (ok bool, line, bin, why string) {
	t.Helper()
	bin, err := Binary()
	if err != nil {
		t.Fatal(err)
	}
	line, err = VersionLine(bin)
	if err != nil {
		t.Fatal(err)
	}
	ok, why = has(line, f)
	return ok, line, bin, why
}

// has reports whether the release that line names ("Terraform v1.15.9",
// "OpenTofu v1.12.6") has f, and if not, why.
func has(line string, f Feature) (bool, string) {
	program, v, _ := strings.Cut(line, " v")
	first := f.Terraform
	if program == "OpenTofu" {
		first = f.OpenTofu
		if first == "" {
			return false, "no OpenTofu release the tests know of has it"
		}
	}
	got, err := version.NewVersion(v)
	if err != nil {
		return false, fmt.Sprintf("its version %q cannot be read: %v", v, err)
	}
	// Pre-releases of the first release count as having it.
	if got.Core().LessThan(version.Must(version.NewVersion(first))) {
		return false, fmt.Sprintf("it came with %s %s", program, first)
	}
	return true, ""
}
