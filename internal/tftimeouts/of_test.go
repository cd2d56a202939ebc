package tftimeouts

import (
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// TestOf reads a timeouts block as the timeouts module does: the value set,
// or the default for an unset block or attribute; a value that is no
// duration is an error on the operation.
func TestOf(t *testing.T) {
	typ := map[string]attr.Type{"read": types.StringType, "update": types.StringType}
	block := func(read attr.Value) types.Object {
		return types.ObjectValueMust(typ, map[string]attr.Value{"read": read, "update": types.StringValue("1h")})
	}
	const def = 20 * time.Minute
	for name, c := range map[string]struct {
		block types.Object
		op    string
		want  time.Duration
		fails bool
	}{
		"no block":            {types.ObjectNull(typ), "read", def, false},
		"a block unknown":     {types.ObjectUnknown(typ), "read", def, false},
		"read unset":          {block(types.StringNull()), "read", def, false},
		"read unknown":        {block(types.StringUnknown()), "read", def, false},
		"read set":            {block(types.StringValue("90s")), "read", 90 * time.Second, false},
		"another op set":      {block(types.StringNull()), "update", time.Hour, false},
		"an op of no block":   {block(types.StringNull()), "create", def, false},
		"read not a duration": {block(types.StringValue("soon")), "read", def, true},
	} {
		got, d := Of(c.block, c.op, def)
		if got != c.want || d.HasError() != c.fails {
			t.Errorf("%s: %s, %v; want %s, failing %v", name, got, d, c.want, c.fails)
		}
		// The error names the attribute and the value, and how to write it.
		if c.fails && (len(d) != 1 || !strings.Contains(d[0].Detail(), `timeouts.read = "soon"`) || !strings.Contains(d[0].Detail(), `"10m"`)) {
			t.Errorf("%s: %v, want one error naming timeouts.read, its value and an example", name, d)
		}
	}
}
