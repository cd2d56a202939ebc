// Package tfmodel moves a resource's model, a struct whose fields are the
// plugin framework's values (types.String, types.Map, timeouts.Value, …)
// tagged `tfsdk:"name"`, out of and into the Terraform values of a plan,
// a state or a configuration.
//
// The framework's own Get and Set (tfsdk.State.Get, tfsdk.Plan.Set) do the
// same by reflection, and compile a regular expression for every field of
// the struct on every call to check its tag (internal/reflect's
// isValidFieldName, in v1.19.0). A refresh calls them five times per
// resource, and a profile of the provider during a plan of 100 Proxmox VMs
// found a tenth of its CPU time there, most of it spent compiling and
// collecting that expression. Here each struct type's tags are read and
// checked once per process.
//
// It imports the plugin framework only.
package tfmodel

import (
	"context"
	"fmt"
	"reflect"
	"regexp"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// field is one field of a model: its index in the struct and the attribute
// it holds.
type field struct {
	index int
	name  string
}

// fieldName is what a tfsdk tag may hold, as the framework requires.
var fieldName = regexp.MustCompile(`^[a-z][a-z0-9_]*$`)

// attrValue is the interface every field must implement.
var attrValue = reflect.TypeFor[attr.Value]()

// fieldsByType caches fieldsOf per struct type.
var fieldsByType sync.Map // reflect.Type → []field

// fieldsOf reads the tagged fields of the struct type t: every exported
// field must carry a tfsdk tag naming an attribute (or "-" to be skipped)
// and be an attr.Value, as the framework requires.
func fieldsOf(t reflect.Type) ([]field, error) {
	if f, ok := fieldsByType.Load(t); ok {
		return f.([]field), nil //nolint:forcetypeassert // only []field is stored
	}
	var out []field
	for i := range t.NumField() {
		sf := t.Field(i)
		if !sf.IsExported() {
			continue
		}
		tag := sf.Tag.Get("tfsdk")
		switch {
		case tag == "-":
			continue
		case tag == "":
			return nil, fmt.Errorf("%s.%s has no tfsdk tag", t, sf.Name)
		case !fieldName.MatchString(tag):
			return nil, fmt.Errorf("%s.%s: tfsdk tag %q is not an attribute name (lower case letters, digits and _)", t, sf.Name, tag)
		case !sf.Type.Implements(attrValue):
			return nil, fmt.Errorf("%s.%s is a %s, not a framework value (attr.Value)", t, sf.Name, sf.Type)
		}
		out = append(out, field{index: i, name: tag})
	}
	fieldsByType.Store(t, out)
	return out, nil
}

// structOf is the struct *T points to, with its fields.
func structOf(model any) (reflect.Value, []field, error) {
	rv := reflect.ValueOf(model)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return reflect.Value{}, nil, fmt.Errorf("the model is a %T, not a pointer to a struct", model)
	}
	fields, err := fieldsOf(rv.Elem().Type())
	return rv.Elem(), fields, err
}

// attributeTypes are the attributes of typ, an object type (a schema's
// Type()), checked against the model's fields: each attribute must have
// its field and each field its attribute.
func attributeTypes(typ attr.Type, fields []field) (map[string]attr.Type, error) {
	obj, ok := typ.(attr.TypeWithAttributeTypes)
	if !ok {
		return nil, fmt.Errorf("the schema's type %s is not an object", typ)
	}
	types := obj.AttributeTypes()
	if len(types) != len(fields) {
		return nil, fmt.Errorf("the model has %d fields for the schema's %d attributes", len(fields), len(types))
	}
	for _, f := range fields {
		if _, ok := types[f.name]; !ok {
			return nil, fmt.Errorf("the model's field %s is no attribute of the schema", f.name)
		}
	}
	return types, nil
}

// Get fills the model *T from raw, a value of typ (the schema's Type()),
// as tfsdk.State.Get, Plan.Get and Config.Get do.
func Get(ctx context.Context, typ attr.Type, raw tftypes.Value, model any) diag.Diagnostics {
	rv, fields, err := structOf(model)
	var types map[string]attr.Type
	if err == nil {
		types, err = attributeTypes(typ, fields)
	}
	if err == nil && (!raw.IsKnown() || raw.IsNull()) {
		err = fmt.Errorf("the value is null or unknown, not an object")
	}
	var values map[string]tftypes.Value
	if err == nil {
		err = raw.As(&values)
	}
	for _, f := range fields {
		if err != nil {
			break
		}
		var v attr.Value
		if v, err = types[f.name].ValueFromTerraform(ctx, values[f.name]); err != nil {
			err = fmt.Errorf("attribute %s: %w", f.name, err)
			break
		}
		dst := rv.Field(f.index)
		if !reflect.TypeOf(v).AssignableTo(dst.Type()) {
			err = fmt.Errorf("attribute %s is a %T, which the model's field of type %s cannot hold", f.name, v, dst.Type())
			break
		}
		dst.Set(reflect.ValueOf(v))
	}
	if err != nil {
		return fault("read", err)
	}
	return nil
}

// Value is the model *T as a value of typ (the schema's Type()), for
// tfsdk.State.Set and Plan.Set, which take it as it is after checking its
// type.
func Value(ctx context.Context, typ attr.Type, model any) (tftypes.Value, diag.Diagnostics) {
	rv, fields, err := structOf(model)
	if err == nil {
		_, err = attributeTypes(typ, fields)
	}
	values := make(map[string]tftypes.Value, len(fields))
	for _, f := range fields {
		if err != nil {
			break
		}
		v, _ := rv.Field(f.index).Interface().(attr.Value) // fieldsOf checked the type
		if v == nil {
			err = fmt.Errorf("attribute %s is nil", f.name)
			break
		}
		if values[f.name], err = v.ToTerraformValue(ctx); err != nil {
			err = fmt.Errorf("attribute %s: %w", f.name, err)
		}
	}
	tfType := typ.TerraformType(ctx)
	if err == nil {
		// NewValue panics on a mismatch; this says which.
		err = tftypes.ValidateValue(tfType, values)
	}
	if err != nil {
		return tftypes.Value{}, fault("write", err)
	}
	return tftypes.NewValue(tfType, values), nil
}

// Setter is what a model is written to: a *tfsdk.State or a *tfsdk.Plan.
type Setter interface {
	Set(ctx context.Context, val any) diag.Diagnostics
}

// Set writes the model *T to to, whose schema's type is typ, as to.Set(ctx,
// model) would.
func Set(ctx context.Context, to Setter, typ attr.Type, model any) diag.Diagnostics {
	v, d := Value(ctx, typ, model)
	if d.HasError() {
		return d
	}
	return to.Set(ctx, v)
}

// fault is a model that does not fit its schema: the provider's own bug.
func fault(what string, err error) diag.Diagnostics {
	var d diag.Diagnostics
	d.AddError("Unable to "+what+" the resource's values",
		"The provider's model does not fit its schema, a fault of the provider's; report it: "+err.Error())
	return d
}
