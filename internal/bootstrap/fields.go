package bootstrap

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
)

// fields maps the contract's field names onto this resource's attributes.
var fields = tfdiag.Fields(adapter.FieldOfferID, adapter.FieldImage, adapter.FieldLocation, "machine_id", "hostname", "max_monthly_price")

// fieldStep is one step of a bootstrap request's field path, as the
// contract's rules name it: an attribute, and an index when it is a list
// element ("files[1]", "command[0]").
var fieldStep = regexp.MustCompile(`^([a-z_]+)(?:\[([0-9]+)\])?$`)

// requestRoots are the attributes a bootstrap request's fields start at.
var requestRoots = map[string]bool{"files": true, "first_boot": true, "ready_command": true, "image": true, "hostname": true, "disks": true}

// requestField puts an apply-time refusal of a bootstrap request (a value
// the plan could not see, e.g. one known only after another resource
// applied) on the attribute at fault: "files[1].path" becomes
// files[1].path, "first_boot.command[2]" first_boot.command[2].
func requestField(field string) (path.Path, bool) {
	if p, ok := fields(field); ok {
		return p, true
	}
	steps := strings.Split(field, ".")
	var p path.Path
	for i, s := range steps {
		m := fieldStep.FindStringSubmatch(s)
		if m == nil {
			return path.Empty(), false
		}
		if i == 0 {
			if !requestRoots[m[1]] {
				return path.Empty(), false
			}
			p = path.Root(m[1])
		} else {
			p = p.AtName(m[1])
		}
		if m[2] != "" {
			n, err := strconv.Atoi(m[2])
			if err != nil {
				return path.Empty(), false
			}
			p = p.AtListIndex(n)
		}
	}
	return p, true
}
