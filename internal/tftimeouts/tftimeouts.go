// Package tftimeouts builds the timeouts blocks of the provider's resources
// and data sources: the blocks of terraform-plugin-framework-timeouts, with
// each operation's default in its description and a check that refuses a
// duration that is not positive when the configuration is validated (plan
// time), since an operation given no time can only fail.
//
// It imports the plugin framework and its timeouts module only.
package tftimeouts

import (
	"context"
	"fmt"
	"time"

	dtimeouts "github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	rtimeouts "github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// Defaults are a resource's default timeouts; an operation left at zero has
// no attribute in the block.
type Defaults struct {
	Create, Read, Update, Delete time.Duration
}

// what the operations do, for descriptions and messages.
var what = map[string]string{
	"create": "the create, its retries and its wait for the machine included,",
	"read":   "a refresh (and the read after an import), retries included,",
	"update": "an update, retries and waits included,",
	"delete": "a delete, retries and the wait until it is gone included,",
}

// Resource is the timeouts block of a resource with the given defaults.
func Resource(ctx context.Context, d Defaults) rschema.Block {
	b := rtimeouts.Block(ctx, rtimeouts.Opts{
		Create: d.Create > 0, CreateDescription: describe(what["create"], d.Create),
		Read: d.Read > 0, ReadDescription: describe(what["read"], d.Read),
		Update: d.Update > 0, UpdateDescription: describe(what["update"], d.Update),
		Delete: d.Delete > 0, DeleteDescription: describe(what["delete"], d.Delete),
	}).(rschema.SingleNestedBlock)
	defaults := map[string]time.Duration{"create": d.Create, "read": d.Read, "update": d.Update, "delete": d.Delete}
	for name, a := range b.Attributes {
		s := a.(rschema.StringAttribute)
		s.MarkdownDescription = s.Description
		s.Validators = append(s.Validators, Positive(name, defaults[name]))
		b.Attributes[name] = s
	}
	b.MarkdownDescription = "How long each operation may take before it gives up."
	return b
}

// DataSource is the timeouts block of a data source, whose only operation
// is its read.
func DataSource(ctx context.Context, read time.Duration) dschema.Block {
	b := dtimeouts.BlockWithOpts(ctx, dtimeouts.Opts{ReadDescription: describe("the read, retries included,", read)}).(dschema.SingleNestedBlock)
	for name, a := range b.Attributes {
		s := a.(dschema.StringAttribute)
		s.MarkdownDescription = s.Description
		s.Validators = append(s.Validators, Positive(name, read))
		b.Attributes[name] = s
	}
	b.MarkdownDescription = "How long the read may take before it gives up."
	return b
}

func describe(w string, d time.Duration) string {
	return fmt.Sprintf("How long %s may take, as a duration such as `\"30s\"` or `\"20m\"` (units `s`, `m`, `h`); "+
		"it must be positive. Defaults to `%s`.", w, Short(d))
}

// Short writes a duration as a user would: 10m, 90s, 1h30m.
func Short(d time.Duration) string {
	switch {
	case d%time.Hour == 0 && d >= time.Hour:
		return fmt.Sprintf("%dh", d/time.Hour)
	case d%time.Minute == 0 && d >= time.Minute:
		return fmt.Sprintf("%dm", d/time.Minute)
	case d%time.Second == 0:
		return fmt.Sprintf("%ds", d/time.Second)
	}
	return d.String()
}

// Positive refuses a timeout of zero or less. A value that is not a
// duration at all is left to the timeouts module's own validator.
func Positive(op string, def time.Duration) validator.String { return positive{op: op, def: def} }

type positive struct {
	op  string
	def time.Duration
}

func (v positive) Description(context.Context) string { return "a positive duration" }

func (v positive) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v positive) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	d, err := time.ParseDuration(req.ConfigValue.ValueString())
	if err != nil || d > 0 {
		return
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Invalid timeout",
		fmt.Sprintf("%s = %q is not a positive duration, and an operation given no time can only fail. "+
			"Set a positive duration such as \"30s\" or \"%s\", or remove %s to use the default (%s).",
			req.Path, req.ConfigValue.ValueString(), Short(2*v.def), v.op, Short(v.def)))
}
