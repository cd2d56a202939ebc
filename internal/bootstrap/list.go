package bootstrap

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

// NewList returns compute_bootstrap_host's list resource; the provider
// lists it.
func NewList(reg *adapter.Registry) list.ListResource {
	l := tflist.NewListResource(reg, typeName, " Each machine is a host taken as it is, as an import takes it: phase `ready`, "+
		"nothing installed. No backend reports the image a dedicated machine was installed with, so each host is generated "+
		"with `image = null`, which the plan refuses, naming `image`: write the image it runs (the first apply records it "+
		"without installing anything), and add `files`, `first_boot` or `ready_command` only as they are to be used for the "+
		"next install. An account whose adapter cannot bootstrap hosts is refused, as the resource refuses it.", listObject)
	l.Refuse = cannotBootstrap
	return l
}

// listObject is the host an import of the machine and its first refresh
// would hold, as far as the configuration goes.
func listObject(ctx context.Context, f tflist.Found, into *tfsdk.Resource) diag.Diagnostics {
	var m model
	m.Phase = types.StringValue(string(adapter.PhaseReady))
	m.setMachine(f.Machine, "")
	return tflist.SetAttributes(ctx, into, map[string]attr.Value{
		"id": m.ID, "account": types.StringValue(f.Account), "machine_id": m.MachineID, "hostname": optional(f.Name),
		"disks": types.StringValue(string(adapter.DisksAuto)), "ipv4": m.IPv4, "ipv6": m.IPv6, "phase": m.Phase, "ready": m.Ready,
		"claim": optional(f.Claim),
	})
}
