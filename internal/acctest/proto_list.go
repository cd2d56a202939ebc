package acctest

import (
	"context"

	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

// ValidateList validates a list block's configuration for list resource
// name (attribute values, the others null), as terraform validate does for
// a query file, and returns the diagnostics.
func (p *Proto) ValidateList(name string, config map[string]tftypes.Value) []*tfprotov6.Diagnostic {
	p.t.Helper()
	s, ok := p.schemas.ListResourceSchemas[name]
	if !ok || s == nil {
		p.t.Fatalf("no list resource %s", name)
	}
	typ, ok := s.ValueType().(tftypes.Object)
	if !ok {
		p.t.Fatalf("list resource %s's schema is a %T, not an object", name, s.ValueType())
	}
	srv, ok := p.srv.(tfprotov6.ListResourceServer)
	if !ok {
		p.t.Fatalf("the provider server %T serves no list resources", p.srv)
	}
	c := p.dynamic(typ, NullsBut(typ, config))
	resp, err := srv.ValidateListResourceConfig(context.Background(), &tfprotov6.ValidateListResourceConfigRequest{TypeName: name, Config: &c})
	if err != nil {
		p.t.Fatalf("validate list resource %s: %v", name, err)
	}
	return resp.Diagnostics
}
