package main

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// TestServedProviderHasListResources: the server main serves names the
// list resource calls, so plugin-go passes `terraform query`'s
// ValidateListResourceConfig and ListResource on to the framework instead
// of answering "not implemented".
func TestServedProviderHasListResources(t *testing.T) {
	s := releasing(providerserver.NewProtocol6(provider.New("test")())())
	l, ok := s.(tfprotov6.ListResourceServer)
	if !ok {
		t.Fatalf("the served provider %T does not serve list resources", s)
	}
	ctx := context.Background()
	schemas, err := s.GetProviderSchema(ctx, &tfprotov6.GetProviderSchemaRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"compute_instance", "compute_bootstrap_host"} {
		ls, ok := schemas.ListResourceSchemas[name]
		if !ok {
			t.Fatalf("no list resource %s among %d", name, len(schemas.ListResourceSchemas))
		}
		typ := ls.ValueType()
		cfg, err := tfprotov6.NewDynamicValue(typ, tftypes.NewValue(typ, nil))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := l.ValidateListResourceConfig(ctx, &tfprotov6.ValidateListResourceConfigRequest{TypeName: name, Config: &cfg}); err != nil {
			t.Errorf("%s: validate: %v", name, err)
		}
		stream, err := l.ListResource(ctx, &tfprotov6.ListResourceRequest{TypeName: name, Config: &cfg})
		if err != nil {
			t.Fatalf("%s: list: %v", name, err)
		}
		// Unconfigured, the listing says so in a result of its own: it ran.
		results := 0
		for range stream.Results {
			results++
		}
		if results == 0 {
			t.Errorf("%s: the listing streamed nothing; want the diagnostic of an unconfigured provider", name)
		}
	}
}

// TestListStreamKeepsTheRequestsContext: the framework streams a listing's
// results while Terraform reads them, after ListResource has returned, so
// the stream must find the request's context as it was, not one let go
// of with the answer.
func TestListStreamKeepsTheRequestsContext(t *testing.T) {
	l, ok := releasing(streaming{}).(tfprotov6.ListResourceServer)
	if !ok {
		t.Fatal("the served provider does not serve list resources")
	}
	stream, err := l.ListResource(request(t), &tfprotov6.ListResourceRequest{TypeName: "compute_instance"})
	if err != nil {
		t.Fatal(err)
	}
	read := 0
	for r := range stream.Results {
		read++
		if r.DisplayName != "" {
			t.Errorf("read after ListResource returned, %s", r.DisplayName)
		}
	}
	if read != 1 {
		t.Errorf("the stream gave %d results; want 1", read)
	}
}
