package account_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"

	"github.com/seedcompute/terraform-provider-compute/internal/account"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

func accountSchema(t *testing.T, reg *adapter.Registry) schema.Schema {
	t.Helper()
	var resp resource.SchemaResponse
	account.New(reg).Schema(context.Background(), resource.SchemaRequest{}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatalf("schema: %v", resp.Diagnostics)
	}
	return resp.Schema
}

// TestBlockOrderIsRegistrationOrder: the account's blocks are documented in
// the order the registry was given, and its example account is the first
// registered, not the kind whose name sorts first. The order changes
// nothing a plan of an existing configuration compares: the schema's type,
// version and every attribute's role are the same in any order.
func TestBlockOrderIsRegistrationOrder(t *testing.T) {
	shipped := provider.DefaultRegistry().Definitions()
	reversed := slices.Clone(shipped)
	slices.Reverse(reversed)
	want, got := accountSchema(t, adapter.NewRegistry(shipped...)), accountSchema(t, adapter.NewRegistry(reversed...))

	var blocks []string
	for _, d := range reversed {
		blocks = append(blocks, "`"+d.BlockName()+"`")
	}
	if !strings.Contains(got.MarkdownDescription, "Set exactly one of "+strings.Join(blocks, ", ")+".") {
		t.Errorf("the description does not list the blocks in registration order (%s): %s", strings.Join(blocks, ", "), got.MarkdownDescription)
	}
	if id := got.Attributes["id"].GetMarkdownDescription(); !strings.Contains(id, `"kind":"`+reversed[0].Kind+`"`) {
		t.Errorf("the id's example is not an account of %s, the first registered: %s", reversed[0].Kind, id)
	}

	if got.Version != want.Version || !got.Type().Equal(want.Type()) {
		t.Fatalf("registration order changed the schema: version %d, type %s; want %d, %s", got.Version, got.Type(), want.Version, want.Type())
	}
	for name, w := range want.Attributes {
		sameRole(t, name, w, got.Attributes[name])
		if wn, ok := w.(schema.SingleNestedAttribute); ok {
			gn := got.Attributes[name].(schema.SingleNestedAttribute)
			for sub, ws := range wn.Attributes {
				sameRole(t, name+"."+sub, ws, gn.Attributes[sub])
			}
		}
	}
}

func sameRole(t *testing.T, name string, want, got schema.Attribute) {
	t.Helper()
	if got == nil || want.IsRequired() != got.IsRequired() || want.IsOptional() != got.IsOptional() ||
		want.IsComputed() != got.IsComputed() || want.IsSensitive() != got.IsSensitive() {
		t.Errorf("attribute %s changes with the registration order: %#v, want %#v", name, got, want)
	}
}
