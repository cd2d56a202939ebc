package acctest

import (
	"context"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// IdentityType is the object type of a resource's identity.
func (p *Proto) IdentityType(resource string) tftypes.Object {
	p.t.Helper()
	resp, err := p.srv.GetResourceIdentitySchemas(context.Background(), &tfprotov6.GetResourceIdentitySchemasRequest{})
	if err != nil || HasError(resp.Diagnostics) {
		p.t.Fatalf("identity schemas: %v %v", err, resp.Diagnostics)
	}
	s, ok := resp.IdentitySchemas[resource]
	if !ok {
		p.t.Fatalf("resource %s has no identity", resource)
	}
	typ, ok := s.ValueType().(tftypes.Object)
	if !ok {
		p.t.Fatalf("resource %s's identity is a %T, not an object", resource, s.ValueType())
	}
	return typ
}

// Identity is identity data of resource with these attributes (the others
// null).
func (p *Proto) Identity(resource string, values map[string]tftypes.Value) *tfprotov6.ResourceIdentityData {
	p.t.Helper()
	typ := p.IdentityType(resource)
	d := p.dynamic(typ, NullsBut(typ, values))
	return &tfprotov6.ResourceIdentityData{IdentityData: &d}
}

// IdentityOf is the string attributes of identity data; nil when there is
// none.
func (p *Proto) IdentityOf(resource string, id *tfprotov6.ResourceIdentityData) map[string]string {
	p.t.Helper()
	if id == nil || id.IdentityData == nil {
		return nil
	}
	v, err := id.IdentityData.Unmarshal(p.IdentityType(resource))
	if err != nil {
		p.t.Fatal(err)
	}
	return Strings(p.t, v)
}

// Strings is the known string attributes of an object value.
func Strings(t testingTB, v tftypes.Value) map[string]string {
	t.Helper()
	var attrs map[string]tftypes.Value
	if err := v.As(&attrs); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for k, a := range attrs {
		var s string
		if a.Type().Is(tftypes.String) && a.IsKnown() && !a.IsNull() && a.As(&s) == nil {
			out[k] = s
		}
	}
	return out
}

// testingTB is what Strings needs of a test.
type testingTB interface {
	Helper()
	Fatal(args ...any)
}

// Import imports resource as an import block does: by id, or by identity
// when id is "".
func (p *Proto) Import(resource, id string, identity *tfprotov6.ResourceIdentityData) *tfprotov6.ImportResourceStateResponse {
	p.t.Helper()
	resp, err := p.srv.ImportResourceState(context.Background(), &tfprotov6.ImportResourceStateRequest{
		TypeName: resource, ID: id, Identity: identity,
	})
	if err != nil {
		p.t.Fatalf("import %s: %v", resource, err)
	}
	return resp
}

// Read refreshes what an import returned, as terraform does right after.
func (p *Proto) Read(imported *tfprotov6.ImportedResource) *tfprotov6.ReadResourceResponse {
	p.t.Helper()
	resp, err := p.srv.ReadResource(context.Background(), &tfprotov6.ReadResourceRequest{
		TypeName: imported.TypeName, CurrentState: imported.State, Private: imported.Private, CurrentIdentity: imported.Identity,
	})
	if err != nil {
		p.t.Fatalf("read %s: %v", imported.TypeName, err)
	}
	return resp
}

// Create plans and applies creating resource from config and returns the
// apply's response; the test fails when either step does.
func (p *Proto) Create(resource string, config map[string]tftypes.Value) *tfprotov6.ApplyResourceChangeResponse {
	p.t.Helper()
	planned, diags := p.Plan(resource, config)
	if planned == nil {
		p.t.Fatalf("plan %s: %v", resource, Diagnostics(diags, tfprotov6.DiagnosticSeverityError))
	}
	typ := p.Type(resource)
	c := p.dynamic(typ, NullsBut(typ, config))
	prior := p.dynamic(typ, tftypes.NewValue(typ, nil))
	resp, err := p.srv.ApplyResourceChange(context.Background(), &tfprotov6.ApplyResourceChangeRequest{
		TypeName: resource, PriorState: &prior, PlannedState: planned, Config: &c,
	})
	if err != nil || HasError(resp.Diagnostics) {
		p.t.Fatalf("apply %s: %v %v", resource, err, Diagnostics(resp.Diagnostics, tfprotov6.DiagnosticSeverityError))
	}
	return resp
}

// State is the string attributes of a resource's state.
func (p *Proto) State(resource string, d *tfprotov6.DynamicValue) map[string]string {
	p.t.Helper()
	v, err := d.Unmarshal(p.Type(resource))
	if err != nil {
		p.t.Fatal(err)
	}
	return Strings(p.t, v)
}
