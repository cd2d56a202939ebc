package offers

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/float64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
)

// DataSource is compute_offers.
type DataSource struct {
	accounts *adapter.Accounts
}

var _ datasource.DataSourceWithConfigure = (*DataSource)(nil)

// New returns the data source; the provider lists it.
func New() datasource.DataSource { return &DataSource{} }

type model struct {
	Accounts        []types.String `tfsdk:"accounts"`
	Kind            types.String   `tfsdk:"kind"`
	Location        types.String   `tfsdk:"location"`
	MinVCPU         types.Int64    `tfsdk:"min_vcpu"`
	MinMemoryGiB    types.Float64  `tfsdk:"min_memory_gib"`
	MinGPUs         types.Int64    `tfsdk:"min_gpus"`
	MaxPricePerHour types.Float64  `tfsdk:"max_price_per_hour"`
	Offers          types.List     `tfsdk:"offers"`
}

var offerTypes = map[string]attr.Type{
	"id":             types.StringType,
	"account":        types.StringType,
	"kind":           types.StringType,
	"location":       types.StringType,
	"description":    types.StringType,
	"vcpu":           types.Int64Type,
	"memory_gib":     types.Float64Type,
	"disk_gib":       types.Int64Type,
	"gpus":           types.Int64Type,
	"price_per_hour": types.Float64Type,
	"currency":       types.StringType,
	"available":      types.BoolType,
}

func (d *DataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_offers"
}

func (d *DataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Offers (server types in locations) of one or more accounts that match the filters, " +
			"sorted by price per hour, then id, then account; offers without a price come last. " +
			"An impossible query yields `[]`, never an error.",
		Attributes: map[string]schema.Attribute{
			"accounts": schema.ListAttribute{
				ElementType:         types.StringType,
				Required:            true,
				MarkdownDescription: "Ids of the `compute_provider_account`s whose catalogs to read.",
				Validators:          []validator.List{listvalidator.SizeAtLeast(1), listvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1))},
			},
			"kind": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only offers of this kind: `vps` (virtual servers) or `metal` (dedicated machines).",
				Validators:          []validator.String{stringvalidator.OneOf(adapter.KindVPS, adapter.KindMetal)},
			},
			"location": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only offers in this location. Defaults to each account's own location.",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"min_vcpu": schema.Int64Attribute{
				Optional: true, MarkdownDescription: "Only offers with at least this many virtual CPUs.",
				Validators: []validator.Int64{int64validator.AtLeast(0)},
			},
			"min_memory_gib": schema.Float64Attribute{
				Optional: true, MarkdownDescription: "Only offers with at least this much memory, in GiB.",
				Validators: []validator.Float64{float64validator.AtLeast(0)},
			},
			"min_gpus": schema.Int64Attribute{
				Optional: true, MarkdownDescription: "Only offers with at least this many GPUs.",
				Validators: []validator.Int64{int64validator.AtLeast(0)},
			},
			"max_price_per_hour": schema.Float64Attribute{
				Optional: true, MarkdownDescription: "Only offers that cost at most this much per hour, in the offer's currency. Offers without a price are left out when this is set.",
				Validators: []validator.Float64{float64validator.AtLeast(0)},
			},
			"offers": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The matching offers.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":             schema.StringAttribute{Computed: true, MarkdownDescription: "Stable id; what `compute_instance.offer_id` takes."},
					"account":        schema.StringAttribute{Computed: true, MarkdownDescription: "The account the offer belongs to."},
					"kind":           schema.StringAttribute{Computed: true, MarkdownDescription: "`vps` or `metal`."},
					"location":       schema.StringAttribute{Computed: true, MarkdownDescription: "Where the offer is available."},
					"description":    schema.StringAttribute{Computed: true, MarkdownDescription: "The backend's description."},
					"vcpu":           schema.Int64Attribute{Computed: true, MarkdownDescription: "Virtual CPUs."},
					"memory_gib":     schema.Float64Attribute{Computed: true, MarkdownDescription: "Memory in GiB."},
					"disk_gib":       schema.Int64Attribute{Computed: true, MarkdownDescription: "Local disk in GiB."},
					"gpus":           schema.Int64Attribute{Computed: true, MarkdownDescription: "GPUs."},
					"price_per_hour": schema.Float64Attribute{Computed: true, MarkdownDescription: "Price per hour; 0 when the backend has no price."},
					"currency":       schema.StringAttribute{Computed: true, MarkdownDescription: "Currency of the price, e.g. `EUR`; empty without a price."},
					"available":      schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether a create would succeed now."},
				}},
			},
		},
	}
}

func (d *DataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	if req.ProviderData == nil {
		return
	}
	a, ok := req.ProviderData.(*adapter.Accounts)
	if !ok {
		resp.Diagnostics.AddError("Unexpected provider data", fmt.Sprintf("compute_offers expected *adapter.Accounts, got %T; this is a bug in the provider.", req.ProviderData))
		return
	}
	d.accounts = a
}

type found struct {
	adapter.Offer
	account string
}

func (d *DataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	const summary = "Unable to list offers"
	var m model
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if d.accounts == nil {
		resp.Diagnostics.AddError(summary, "The provider is not configured; this is a bug in the provider.")
		return
	}
	q := adapter.Query{
		Kind:            m.Kind.ValueString(),
		Location:        m.Location.ValueString(),
		MinVCPU:         int(m.MinVCPU.ValueInt64()),
		MinMemoryGiB:    m.MinMemoryGiB.ValueFloat64(),
		MinGPUs:         int(m.MinGPUs.ValueInt64()),
		MaxPricePerHour: m.MaxPricePerHour.ValueFloat64(),
	}
	var all []found
	for i, id := range m.Accounts {
		p := path.Root("accounts").AtListIndex(i)
		acc, _, err := d.accounts.Open(id.ValueString())
		if err != nil {
			resp.Diagnostics.AddAttributeError(p, summary,
				fmt.Sprintf("accounts[%d] = %q is not a compute_provider_account id: %s", i, id.ValueString(), tfdiag.Message(err)))
			continue
		}
		offers, err := acc.ListOffers(ctx, q)
		if err != nil {
			at := func(field string) (path.Path, bool) {
				switch field {
				case "kind", "location", "min_vcpu", "min_memory_gib", "min_gpus", "max_price_per_hour":
					return path.Root(field), true
				}
				return p, true
			}
			detail := fmt.Sprintf("Listing the offers of account %s with filters %s failed. %s", id.ValueString(), describe(q), tfdiag.WayOut(err))
			if tfdiag.UnknownUntilApply(err) {
				detail = fmt.Sprintf("The offers of account %s cannot be listed during plan: its secret comes from the provider block's secrets, "+
					"which are not known until apply. Use an env:// or file:// reference for accounts that compute_offers reads.", id.ValueString())
			}
			tfdiag.AddError(&resp.Diagnostics, at, summary, detail, err)
			continue
		}
		for _, o := range offers {
			all = append(all, found{Offer: o, account: id.ValueString()})
		}
	}
	if resp.Diagnostics.HasError() {
		return
	}
	sortOffers(all)
	list, diags := toList(all)
	resp.Diagnostics.Append(diags...)
	m.Offers = list
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// sortOffers orders by price, then id, then account; offers without a price
// (0) come last, so the first offer is the cheapest priced one.
func sortOffers(all []found) {
	slices.SortStableFunc(all, func(a, b found) int {
		ap, bp := a.PricePerHour == 0, b.PricePerHour == 0
		switch {
		case ap != bp && ap:
			return 1
		case ap != bp:
			return -1
		}
		return cmp.Or(cmp.Compare(a.PricePerHour, b.PricePerHour), cmp.Compare(a.ID, b.ID), cmp.Compare(a.account, b.account))
	})
}

func toList(all []found) (types.List, diag.Diagnostics) {
	elems := make([]attr.Value, 0, len(all))
	for _, o := range all {
		elems = append(elems, types.ObjectValueMust(offerTypes, map[string]attr.Value{
			"id":             types.StringValue(o.ID),
			"account":        types.StringValue(o.account),
			"kind":           types.StringValue(o.Kind),
			"location":       types.StringValue(o.Location),
			"description":    types.StringValue(o.Description),
			"vcpu":           types.Int64Value(int64(o.VCPU)),
			"memory_gib":     types.Float64Value(o.MemoryGiB),
			"disk_gib":       types.Int64Value(int64(o.DiskGiB)),
			"gpus":           types.Int64Value(int64(o.GPUs)),
			"price_per_hour": types.Float64Value(o.PricePerHour),
			"currency":       types.StringValue(o.Currency),
			"available":      types.BoolValue(o.Available),
		}))
	}
	return types.ListValue(types.ObjectType{AttrTypes: offerTypes}, elems)
}

// describe renders the filters that were set, for messages.
func describe(q adapter.Query) string {
	var parts []string
	add := func(name string, v any, set bool) {
		if set {
			parts = append(parts, fmt.Sprintf("%s=%v", name, v))
		}
	}
	add("kind", q.Kind, q.Kind != "")
	add("location", q.Location, q.Location != "")
	add("min_vcpu", q.MinVCPU, q.MinVCPU != 0)
	add("min_memory_gib", q.MinMemoryGiB, q.MinMemoryGiB != 0)
	add("min_gpus", q.MinGPUs, q.MinGPUs != 0)
	add("max_price_per_hour", q.MaxPricePerHour, q.MaxPricePerHour != 0)
	if len(parts) == 0 {
		return "(none)"
	}
	return strings.Join(parts, ", ")
}
