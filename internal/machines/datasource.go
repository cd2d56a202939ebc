package machines

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tflist"
	"github.com/seedcompute/terraform-provider-compute/internal/tftimeouts"
)

// invalidArgument is the summary of a refused argument of compute_machines
// (tflist.Lister.Summary).
const invalidArgument = "Unable to use compute_machines argument"

// DataSource is compute_machines.
type DataSource struct {
	// registry is known before the provider is configured, so accounts
	// of adapters without an inventory are refused when the configuration
	// is validated, before anything is planned.
	registry *adapter.Registry
	accounts *adapter.Accounts
}

var (
	_ datasource.DataSourceWithConfigure      = (*DataSource)(nil)
	_ datasource.DataSourceWithValidateConfig = (*DataSource)(nil)
)

// New returns the data source for the provider's adapter kinds; the
// provider lists it.
func New(reg *adapter.Registry) datasource.DataSource { return &DataSource{registry: reg} }

func (d *DataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_machines"
}

func (d *DataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = dataSourceSchema(ctx, d.registry)
}

func (d *DataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	if req.ProviderData == nil {
		return
	}
	a, ok := req.ProviderData.(*adapter.Accounts)
	if !ok {
		resp.Diagnostics.AddError("Unable to configure machines", fmt.Sprintf("compute_machines expected *adapter.Accounts, got %T; this is a bug in the provider.", req.ProviderData))
		return
	}
	d.accounts = a
}

// ValidateConfig refuses, on its list index, an account whose adapter cannot
// list every machine. Terraform calls it when the configuration is validated
// and again with the values a read gets, so an id known only at apply is
// refused then, before the read.
func (d *DataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	tflist.Lister{Registry: d.registry, Summary: invalidArgument}.Validate(ctx, req.Config, &resp.Diagnostics)
}

// Read lists every account's machines, retrying an inventory whose backend
// fails or asks to slow down until the read timeout, and keeps those that
// match the filters. Accounts are all checked before any is listed.
func (d *DataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	// The retries of a failing inventory are logged like every other
	// operation's (see adapter.Accounts.Logging).
	ctx = d.accounts.Logging(ctx)
	var m model
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	timeout, diags := m.Timeouts.Read(ctx, tflist.DefaultReadTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	all := tflist.Lister{Registry: d.registry, Accounts: d.accounts}.List(ctx, m.Filters, timeout,
		tftimeouts.UnreachableOf(m.Timeouts.Object, adapter.DefaultUnreachable), &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	m.Machines, diags = toList(ctx, all)
	resp.Diagnostics.Append(diags...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func toList(ctx context.Context, all []tflist.Found) (types.List, diag.Diagnostics) {
	var diags diag.Diagnostics
	elems := make([]attr.Value, 0, len(all))
	for _, f := range all {
		labels, d := types.MapValueFrom(ctx, types.StringType, nonNil(f.Labels))
		diags.Append(d...)
		created := types.StringNull()
		if !f.CreatedAt.IsZero() {
			created = types.StringValue(f.CreatedAt.UTC().Format(time.RFC3339))
		}
		elems = append(elems, types.ObjectValueMust(machineTypes, map[string]attr.Value{
			"id":                  types.StringValue(f.ImportID),
			"machine_id":          types.StringValue(f.ID),
			"account":             types.StringValue(f.Account),
			"name":                types.StringValue(f.Name),
			"managed":             types.BoolValue(f.Managed),
			"state":               types.StringValue(string(f.State)),
			"raw_state":           types.StringValue(f.RawState),
			"offer_id":            optional(f.OfferID),
			"image":               optional(f.Image),
			adapter.FieldLocation: optional(f.Location),
			"labels":              labels,
			"ipv4_address":        optional(f.IPv4),
			"ipv6_address":        optional(f.IPv6),
			"created_at":          created,
		}))
	}
	list, d := types.ListValue(types.ObjectType{AttrTypes: machineTypes}, elems)
	diags.Append(d...)
	return list, diags
}

func optional(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}

func nonNil(m map[string]string) map[string]string {
	if m == nil {
		return map[string]string{}
	}
	return m
}
