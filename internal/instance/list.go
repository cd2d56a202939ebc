package instance

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tflist"
)

// NewList returns compute_instance's list resource; the provider lists it.
func NewList(reg *adapter.Registry) list.ListResource {
	return tflist.NewListResource(reg, typeName, " A machine whose backend does not report its image is generated with "+
		"`image = null`, which the plan refuses, naming `image`: write the image it was made from, and it is taken as the "+
		"machine's own without replacing it."+queryNotes(reg), listObject)
}

// queryNotes is what each backend's generated instances leave null
// (adapter.NoteQuery).
func queryNotes(reg *adapter.Registry) string {
	if reg == nil {
		return ""
	}
	return reg.Notes(adapter.NoteQuery)
}

// listObject is the instance an import of the machine and its first
// refresh would hold, as far as the configuration goes: what
// -generate-config-out writes from it must plan to nothing but the mark.
func listObject(ctx context.Context, f tflist.Found, into *tfsdk.Resource) diag.Diagnostics {
	m := model{
		Account: types.StringValue(f.Account), Image: types.StringNull(), Power: types.StringNull(),
		ShutdownTimeout: types.StringNull(), UserDataSHA256: types.StringNull(),
	}
	diags := m.setMachine(ctx, f.Machine)
	diags.Append(tflist.SetAttributes(ctx, into, map[string]attr.Value{
		"id": m.ID, "account": m.Account, adapter.FieldName: m.Name, adapter.FieldOfferID: optional(f.OfferID),
		adapter.FieldImage: m.Image, adapter.FieldLocation: m.Location, adapter.FieldLabels: m.Labels, adapter.FieldPower: m.Power,
		"shutdown_timeout": m.ShutdownTimeout, "state": m.State, "raw_state": m.RawState, "ipv4_address": m.IPv4,
		"ipv6_address": m.IPv6, "created_at": m.CreatedAt, "managed": m.Managed, "available_actions": m.AvailableActions,
		"claim": optional(f.Claim),
	})...)
	return diags
}
