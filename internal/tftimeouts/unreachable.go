package tftimeouts

import (
	"fmt"
	"time"

	dtimeouts "github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	rtimeouts "github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	dschema "github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	rschema "github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// UnreachableName is the timeouts attribute that bounds, within a read made
// while planning, the retries of an endpoint that cannot be reached at all.
// It is no operation of its own, so the framework's timeouts module does
// not have it; the blocks get it here, beside read, whose retries of a
// backend that answers it does not shorten.
const UnreachableName = "unreachable"

// Unreachable is the Op that adds UnreachableName to a timeouts block, with
// def (the contract's default) as its default; What is unused.
func Unreachable(def time.Duration) Op { return Op{Name: UnreachableName, Default: def} }

// describeUnreachable documents the attribute; it is the same on every
// resource and data source, since the budget is the contract's.
func describeUnreachable(def time.Duration) string {
	return fmt.Sprintf("How long a read made while planning (a refresh, a data source's read, the account's health check) keeps retrying "+
		"an endpoint it cannot reach at all before it fails: the connection is refused, the host name does not resolve, or the TLS handshake "+
		"fails. A duration such as `\"30s\"` or `\"2m\"`, `\"0s\"` for a single attempt. Defaults to `%s`. The time counts from the first such "+
		"failure of any read through the same account in the same command, so a plan against a dead endpoint fails in about this long however "+
		"many resources use it: a read that starts after another gave up makes one attempt. `read` still bounds the whole read. A backend "+
		"that answers with a failure (HTTP 5xx) or asks to slow down (429) is retried until `read` instead, and applies (create, update, "+
		"delete) retry an unreachable endpoint until their own timeouts. A read that gives up changes nothing in the state (an account's "+
		"refresh records the outage in `health`).", Short(def))
}

// UnreachableAttribute is the attribute for a resource's timeouts block
// that is built by hand (one with phases of its own, say).
func UnreachableAttribute(def time.Duration) rschema.StringAttribute {
	return rschema.StringAttribute{Optional: true, MarkdownDescription: describeUnreachable(def),
		Validators: []validator.String{Bound(def)}}
}

// UnreachableOf reads the attribute from a timeouts block: def when the
// block or the attribute is unset (Bound refused anything else at plan).
func UnreachableOf(block types.Object, def time.Duration) time.Duration {
	if block.IsNull() || block.IsUnknown() {
		return def
	}
	s, ok := block.Attributes()[UnreachableName].(types.String)
	if !ok {
		return def
	}
	return ParseBound(s.ValueString(), !s.IsNull() && !s.IsUnknown(), def)
}

// withUnreachable adds the attribute to a block the timeouts module built,
// its type included, so that the module's Value still reads the rest.
func withUnreachable(b rschema.SingleNestedBlock, def time.Duration) rschema.SingleNestedBlock {
	b.Attributes[UnreachableName] = UnreachableAttribute(def)
	t := shape[rtimeouts.Type](b.CustomType)
	b.CustomType = rtimeouts.Type{ObjectType: types.ObjectType{AttrTypes: withString(t.AttrTypes)}}
	return b
}

// withUnreachableData is withUnreachable for a data source's block.
func withUnreachableData(b dschema.SingleNestedBlock, def time.Duration) dschema.SingleNestedBlock {
	b.Attributes[UnreachableName] = dschema.StringAttribute{Optional: true, MarkdownDescription: describeUnreachable(def),
		Validators: []validator.String{Bound(def)}}
	t := shape[dtimeouts.Type](b.CustomType)
	b.CustomType = dtimeouts.Type{ObjectType: types.ObjectType{AttrTypes: withString(t.AttrTypes)}}
	return b
}

func withString(in map[string]attr.Type) map[string]attr.Type {
	out := map[string]attr.Type{UnreachableName: types.StringType}
	for k, v := range in {
		out[k] = v
	}
	return out
}
