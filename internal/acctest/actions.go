package acctest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/hashicorp/go-version"
)

// actionsSince is the first Terraform release that runs provider actions
// (`terraform apply -invoke`, action_trigger).
var actionsSince = version.Must(version.NewVersion("1.14.0"))

// SkipWithoutActions skips t, naming the binary and its version, when the
// binary the tests drive cannot run actions: Terraform before 1.14, and
// OpenTofu, which has no actions.
func SkipWithoutActions(t testing.TB) {
	t.Helper()
	bin, err := Binary()
	if err != nil {
		t.Fatal(err)
	}
	line, err := VersionLine(bin)
	if err != nil {
		t.Fatal(err)
	}
	if why := actionsMissing(line); why != "" {
		t.Skipf("%s (%s): %s", line, bin, why)
	}
}

// actionsMissing says why the binary of version line cannot run actions, ""
// when it can.
func actionsMissing(line string) string {
	name, v, _ := strings.Cut(line, " v")
	if name == "OpenTofu" {
		return "OpenTofu has no provider actions (no action blocks, no apply -invoke); it ignores the provider's action schemas"
	}
	got, err := version.NewVersion(v)
	if err != nil {
		return fmt.Sprintf("cannot read the version %q: %v", v, err)
	}
	if got.Core().LessThan(actionsSince) {
		return "provider actions (action blocks, apply -invoke, action_trigger) need Terraform " + actionsSince.String() + " or later"
	}
	return ""
}
