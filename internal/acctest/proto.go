package acctest

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// Proto drives the provider through the plugin protocol, without
// terraform, for what the CLI does not let a test see: each diagnostic with
// its attribute path, warnings included, and the exact text the provider
// sent before terraform wraps or folds it.
type Proto struct {
	t       testing.TB
	srv     tfprotov6.ProviderServer
	schemas *tfprotov6.GetProviderSchemaResponse
}

// NewProto serves a provider with reg's adapter kinds, configured with an
// empty provider block.
func NewProto(t testing.TB, reg *adapter.Registry) *Proto {
	t.Helper()
	ctx := context.Background()
	srv, err := providerserver.NewProtocol6WithError(provider.New("test", provider.WithRegistry(reg), provider.WithClock(FastClock{}))())()
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := srv.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil || HasError(schemas.Diagnostics) {
		t.Fatalf("schema: %v %v", err, schemas.Diagnostics)
	}
	p := &Proto{t: t, srv: srv, schemas: schemas}
	typ, ok := schemas.Provider.ValueType().(tftypes.Object)
	if !ok {
		t.Fatalf("the provider's schema is a %T, not an object", schemas.Provider.ValueType())
	}
	cfg := p.dynamic(typ, NullsBut(typ, nil))
	if resp, err := srv.ConfigureProvider(ctx, &tfprotov6.ConfigureProviderRequest{Config: &cfg}); err != nil || HasError(resp.Diagnostics) {
		t.Fatalf("configure: %v %v", err, resp.Diagnostics)
	}
	return p
}

// Type is the object type of a resource's configuration and state.
func (p *Proto) Type(resource string) tftypes.Object {
	s, ok := p.schemas.ResourceSchemas[resource]
	if !ok {
		p.t.Fatalf("no resource %s", resource)
	}
	typ, ok := s.ValueType().(tftypes.Object)
	if !ok {
		p.t.Fatalf("resource %s's schema is a %T, not an object", resource, s.ValueType())
	}
	return typ
}

// Plan plans creating resource from config (attribute values, the others
// null), as terraform would; planned is nil when the plan failed.
func (p *Proto) Plan(resource string, config map[string]tftypes.Value) (planned *tfprotov6.DynamicValue, diags []*tfprotov6.Diagnostic) {
	p.t.Helper()
	typ := p.Type(resource)
	c := p.dynamic(typ, NullsBut(typ, config))
	prior := p.dynamic(typ, tftypes.NewValue(typ, nil))
	resp, err := p.srv.PlanResourceChange(context.Background(), &tfprotov6.PlanResourceChangeRequest{
		TypeName: resource, PriorState: &prior, ProposedNewState: &c, Config: &c,
	})
	if err != nil {
		p.t.Fatalf("plan %s: %v", resource, err)
	}
	if HasError(resp.Diagnostics) {
		return nil, resp.Diagnostics
	}
	return resp.PlannedState, resp.Diagnostics
}

// Apply creates resource as planned from config and returns the diagnostics.
func (p *Proto) Apply(resource string, config map[string]tftypes.Value, planned *tfprotov6.DynamicValue) []*tfprotov6.Diagnostic {
	p.t.Helper()
	typ := p.Type(resource)
	c := p.dynamic(typ, NullsBut(typ, config))
	prior := p.dynamic(typ, tftypes.NewValue(typ, nil))
	resp, err := p.srv.ApplyResourceChange(context.Background(), &tfprotov6.ApplyResourceChangeRequest{
		TypeName: resource, PriorState: &prior, PlannedState: planned, Config: &c,
	})
	if err != nil {
		p.t.Fatalf("apply %s: %v", resource, err)
	}
	return resp.Diagnostics
}

func (p *Proto) dynamic(typ tftypes.Type, v tftypes.Value) tfprotov6.DynamicValue {
	p.t.Helper()
	d, err := tfprotov6.NewDynamicValue(typ, v)
	if err != nil {
		p.t.Fatal(err)
	}
	return d
}

// NullsBut is an object of typ whose attributes are null but for values.
func NullsBut(typ tftypes.Object, values map[string]tftypes.Value) tftypes.Value {
	attrs := map[string]tftypes.Value{}
	for name, at := range typ.AttributeTypes {
		attrs[name] = tftypes.NewValue(at, nil)
		if v, ok := values[name]; ok {
			attrs[name] = v
		}
	}
	return tftypes.NewValue(typ, attrs)
}

// String is a known string value.
func String(s string) tftypes.Value { return tftypes.NewValue(tftypes.String, s) }

// HasError reports whether diags hold an error.
func HasError(diags []*tfprotov6.Diagnostic) bool {
	for _, d := range diags {
		if d.Severity == tfprotov6.DiagnosticSeverityError {
			return true
		}
	}
	return false
}

// Diagnostics lists diags of severity as "PATH: SUMMARY: DETAIL".
func Diagnostics(diags []*tfprotov6.Diagnostic, severity tfprotov6.DiagnosticSeverity) []string {
	var out []string
	for _, d := range diags {
		if d.Severity == severity {
			out = append(out, d.Attribute.String()+": "+d.Summary+": "+d.Detail)
		}
	}
	return out
}
