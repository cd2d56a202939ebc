// Package tftimeouts builds the timeouts blocks of the provider's resources
// and data sources: the blocks of terraform-plugin-framework-timeouts, with
// each operation's default in its description and a check that refuses a
// duration that is not positive when the configuration is validated (plan
// time), since an operation given no time can only fail.
//
// Bound (bound.go) checks the waits inside an operation that users set as
// attributes, which may be zero.
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

// Op is one operation of a timeouts block.
type Op struct {
	// Name is the attribute: create, read, update or delete.
	Name    string
	Default time.Duration
	// What says what the time is for, in "How long ...", e.g. "the create
	// may take, counting its retries and the wait for the machine".
	What string
}

// silence is said of every read: the timeout is not what ends it.
const silence = " A backend that answers nothing at all ends it sooner: a request left unanswered twice is not retried; " +
	"and so does one that cannot be reached at all, after `unreachable`."

// Resource is the timeouts block of a resource with the given operations.
//
// Unreachable(def) among ops adds the unreachable attribute.
func Resource(ctx context.Context, ops ...Op) rschema.Block {
	opts := rtimeouts.Opts{}
	var unreachable *Op
	for _, op := range ops {
		if op.Name == UnreachableName {
			unreachable = &op
			continue
		}
		switch op.Name {
		case "create":
			opts.Create, opts.CreateDescription = true, describe(op)
		case "read":
			opts.Read, opts.ReadDescription = true, describe(op)
		case "update":
			opts.Update, opts.UpdateDescription = true, describe(op)
		case "delete":
			opts.Delete, opts.DeleteDescription = true, describe(op)
		}
	}
	b := shape[rschema.SingleNestedBlock](rtimeouts.Block(ctx, opts))
	for _, op := range ops {
		if op.Name == UnreachableName {
			continue
		}
		s := shape[rschema.StringAttribute](b.Attributes[op.Name])
		s.MarkdownDescription = s.Description
		s.Validators = append(s.Validators, Positive(op.Name, op.Default))
		b.Attributes[op.Name] = s
	}
	b.MarkdownDescription = "How long each operation may take before it gives up."
	if unreachable != nil {
		b = withUnreachable(b, unreachable.Default)
		b.MarkdownDescription += " `unreachable` bounds, within a read, the retries of an endpoint that cannot be reached."
	}
	return b
}

// DataSource is the timeouts block of a data source, whose only operation
// is its read; Unreachable(def) among more adds the unreachable attribute.
func DataSource(ctx context.Context, read Op, more ...Op) dschema.Block {
	read.Name = "read"
	b := shape[dschema.SingleNestedBlock](dtimeouts.BlockWithOpts(ctx, dtimeouts.Opts{ReadDescription: describe(read)}))
	s := shape[dschema.StringAttribute](b.Attributes[read.Name])
	s.MarkdownDescription = s.Description
	s.Validators = append(s.Validators, Positive(read.Name, read.Default))
	b.Attributes[read.Name] = s
	b.MarkdownDescription = "How long the read may take before it gives up."
	for _, op := range more {
		if op.Name == UnreachableName {
			b = withUnreachableData(b, op.Default)
			b.MarkdownDescription += " `unreachable` bounds, within it, the retries of an endpoint that cannot be reached."
		}
	}
	return b
}

func describe(op Op) string {
	d := fmt.Sprintf("How long %s: a positive duration such as `\"30s\"` or `\"20m\"` (units `s`, `m`, `h`). Defaults to `%s`.",
		op.What, Short(op.Default))
	if op.Name == "read" {
		d += silence
	}
	return d
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
	resp.Diagnostics.AddAttributeError(req.Path, "Unable to use timeout",
		fmt.Sprintf("%s = %q is not a positive duration, and an operation given no time can only fail. "+
			"Set a positive duration such as \"30s\" or \"%s\", or remove %s to use the default (%s).",
			req.Path, req.ConfigValue.ValueString(), Short(2*v.def), v.op, Short(v.def)))
}

// shape is v, a part of a block the timeouts module built, as the type this
// package extends. A schema function has no error to return; should an
// upgrade of the module change a shape, every schema fails at once with
// this message rather than with a bare failed type assertion.
func shape[T any](v any) T {
	t, ok := v.(T)
	if !ok {
		panic(fmt.Sprintf("tftimeouts: the timeouts module built a %T where this package expects a %T; its block changed shape", v, t))
	}
	return t
}
