package install

import (
	"fmt"
	"strconv"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Validate refuses a request whose values could reach a generated line as
// anything but one plain word. The rules are the contract's
// (adapter.CheckBootstrap), the ones the Terraform layer holds each value
// to at plan time, so a request the plan accepted is never refused here for
// another reason; Validate adds only what the generators need beyond them:
// each file its own path, since install.sh installs files/N at each path in
// turn and the last would win unseen. Errors are InvalidInput with Field
// set to the attribute path ("hostname", "files[2].path",
// "first_boot.command[1]"); contents are never looked at or shown.
func Validate(req adapter.BootstrapRequest) error {
	if err := adapter.CheckBootstrap(req); err != nil {
		return err
	}
	seen := map[string]int{}
	for i, f := range req.Files {
		if j, dup := seen[f.Path]; dup {
			return adapter.Errorf(adapter.InvalidInput, "path %q is also the path of files[%d]; give each file its own path", f.Path, j).
				WithField(fmt.Sprintf("files[%d].path", i))
		}
		seen[f.Path] = i
	}
	return nil
}

// NormalMode returns an octal mode from 0000 to 0777 as four digits.
func NormalMode(m string) (string, error) {
	v, err := strconv.ParseUint(m, 8, 16)
	if err != nil || len(m) < 3 || len(m) > 4 || v > 0o777 {
		return "", fmt.Errorf("not an octal mode from 0000 to 0777")
	}
	return fmt.Sprintf("%04o", v), nil
}
