package tflist

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// The validators here replace the framework's stock ones, whose messages
// name the attribute and the value but not what to write instead. Their
// summary names the block the user wrote: the compute_machines data source,
// or a list block of a list resource (listArgument), which share them.

// listArgument is the summary of a refused argument of the list block of
// list resource typeName.
func listArgument(typeName string) string { return "Unable to use " + typeName + " list argument" }

// NotEmpty refuses "", which would read as "no filter", for the
// attribute Name, naming Example as what to write instead.
type NotEmpty struct{ Summary, Name, Example string }

func (NotEmpty) Description(context.Context) string { return "not empty" }

func (c NotEmpty) MarkdownDescription(ctx context.Context) string { return c.Description(ctx) }

func (c NotEmpty) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	v := req.ConfigValue
	if v.IsNull() || v.IsUnknown() || v.ValueString() != "" {
		return
	}
	resp.Diagnostics.AddAttributeError(req.Path, c.Summary, fmt.Sprintf(
		"%s is empty; set %s, or leave %s out to not filter on it.", c.Name, c.Example, c.Name))
}

// RegexCheck refuses a pattern that does not compile, with the reason.
type RegexCheck struct{ Summary string }

func (RegexCheck) Description(context.Context) string { return "a regular expression in RE2 syntax" }

func (c RegexCheck) MarkdownDescription(ctx context.Context) string { return c.Description(ctx) }

func (c RegexCheck) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	v := req.ConfigValue
	if v.IsNull() || v.IsUnknown() {
		return
	}
	if v.ValueString() == "" {
		resp.Diagnostics.AddAttributeError(req.Path, c.Summary,
			"name_regex is empty, which matches every name; set a pattern such as \"^web-\", or leave name_regex out.")
		return
	}
	if _, err := regexp.Compile(v.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, c.Summary, fmt.Sprintf(
			"name_regex = %q is not a regular expression: %v. Use RE2 syntax, as Terraform's regex function, e.g. \"^web-[0-9]+$\".",
			v.ValueString(), strings.TrimPrefix(err.Error(), "error parsing regexp: ")))
	}
}

// states are the contract's states, in the order the documentation lists
// them.
var states = []adapter.State{
	adapter.StatePending, adapter.StateRunning, adapter.StateStopped, adapter.StateRescue,
	adapter.StateDeleting, adapter.StateDeleted, adapter.StateError, adapter.StateUnknown,
}

func stateNames() string {
	names := make([]string, len(states))
	for i, s := range states {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}

// StatesCheck accepts the contract's states and refuses an empty set,
// which would match nothing.
type StatesCheck struct{ Summary string }

func (StatesCheck) Description(context.Context) string { return "states such as running or stopped" }

func (c StatesCheck) MarkdownDescription(ctx context.Context) string { return c.Description(ctx) }

func (c StatesCheck) ValidateSet(_ context.Context, req validator.SetRequest, resp *validator.SetResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	checkStates(c.Summary, req.ConfigValue.Elements(), func(_ int, v attr.Value) path.Path { return req.Path.AtSetValue(v) }, req.Path, &resp.Diagnostics)
}

// ValidateList is ValidateSet for a list resource's states, which the
// list block schema can hold only as a list.
func (c StatesCheck) ValidateList(_ context.Context, req validator.ListRequest, resp *validator.ListResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	checkStates(c.Summary, req.ConfigValue.Elements(), func(i int, _ attr.Value) path.Path { return req.Path.AtListIndex(i) }, req.Path, &resp.Diagnostics)
}

// checkStates refuses no states and a value that is not a state, on the
// element's path (at), under summary.
func checkStates(summary string, elems []attr.Value, at func(int, attr.Value) path.Path, p path.Path, diags *diag.Diagnostics) {
	if len(elems) == 0 {
		diags.AddAttributeError(p, summary,
			"states is empty, which matches no machine; list states such as [\"running\", \"stopped\"], or leave states out for every state.")
		return
	}
	for i, v := range elems {
		s, ok := v.(types.String)
		if !ok || s.IsNull() || s.IsUnknown() || isState(s.ValueString()) {
			continue
		}
		diags.AddAttributeError(at(i, v), summary, fmt.Sprintf(
			"states holds %q, which is not a machine state; use %s.", s.ValueString(), stateNames()))
	}
}

func isState(s string) bool {
	for _, st := range states {
		if string(st) == s {
			return true
		}
	}
	return false
}

// checkInventory refuses an account whose adapter cannot list every
// machine, with a detail whose way out names the adapters that can and the
// import that works without this data source. Ids it cannot read pass:
// they are refused where they are opened, with the reason.
func checkInventory(reg *adapter.Registry, i int, id string) (string, bool) {
	loc, err := adapter.ParseLocator(id)
	if err != nil {
		return "", true
	}
	def, err := reg.Definition(loc.Kind)
	if err != nil || def.Capabilities.Has(adapter.CapInventory) {
		return "", true
	}
	var able []string
	for _, k := range reg.Kinds() {
		if d, _ := reg.Definition(k); d.Capabilities.Has(adapter.CapInventory) {
			able = append(able, k)
		}
	}
	can := "no adapter of this provider can"
	if len(able) > 0 {
		can = "only accounts of the " + strings.Join(able, ", ") + " adapter can be listed"
	}
	return fmt.Sprintf("%s is an account of the %s adapter, which cannot list every machine of an account (it lacks the %s capability), and %s. "+
		"Remove it from accounts, and import its machines one by one: an import block with id = \"ACCOUNT_ID/MACHINE_ID\" for each.",
		fmt.Sprintf("accounts[%d] (account %s)", i, reg.LabelID(id)), loc.Kind, adapter.CapInventory, can), false
}
