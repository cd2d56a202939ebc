package tftimeouts

import (
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// Of is the duration a timeouts block sets for op (create, read, update,
// delete), def when the block or the attribute is unset, as the timeouts
// module's Value.Read, Create, Update and Delete give it. Those log a line
// at Info for every unset value ("read timeout configuration is null or
// unknown, using provided default"), formatted whatever the level; a plan
// reads the read and update timeouts of every resource, so a plan of 100
// instances formatted 300 such lines for nothing.
func Of(block types.Object, op string, def time.Duration) (time.Duration, diag.Diagnostics) {
	if block.IsNull() || block.IsUnknown() {
		return def, nil
	}
	s, ok := block.Attributes()[op].(types.String)
	if !ok || s.IsNull() || s.IsUnknown() {
		return def, nil
	}
	d, err := time.ParseDuration(s.ValueString())
	if err != nil {
		var diags diag.Diagnostics
		diags.AddAttributeError(path.Root("timeouts").AtName(op), "Unable to read timeouts",
			fmt.Sprintf("timeouts.%s = %q is not a duration (%s); write it as a number with a unit, such as \"30s\", \"10m\" or \"1h30m\"", op, s.ValueString(), err))
		return def, diags
	}
	return d, nil
}
