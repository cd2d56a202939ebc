package offers

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tftimeouts"
	"github.com/seedcompute/terraform-provider-compute/internal/tfvalidate"
)

var offerTypes = map[string]attr.Type{
	"id":                      types.StringType,
	"account":                 types.StringType,
	"kind":                    types.StringType,
	adapter.FieldLocation:     types.StringType,
	"description":             types.StringType,
	"vcpu":                    types.Int64Type,
	"memory_gib":              types.Float64Type,
	"disk_gib":                types.Int64Type,
	"gpus":                    types.Int64Type,
	"gpu_model":               types.StringType,
	adapter.FieldPricePerHour: types.Float64Type,
	"price_per_month":         types.Float64Type,
	"setup_fee":               types.Float64Type,
	"currency":                types.StringType,
	"available":               types.BoolType,
}

// Schema documents what each backend's values are from its definition's
// notes, so a new adapter documents itself here without code in this package.
func (d *DataSource) Schema(ctx context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Offers (server types in locations) of one or more accounts that match the filters, " +
			"sorted by price per hour, then id, account and location; offers without a price come last. " +
			"An impossible query yields `[]`, never an error.",
		Attributes: map[string]schema.Attribute{
			"accounts": schema.ListAttribute{
				ElementType: types.StringType,
				Required:    true,
				MarkdownDescription: "Ids of the `compute_provider_account`s whose catalogs to read, e.g. " +
					"`[compute_provider_account.cloud.id]`. At least one, each listed once.",
				Validators: []validator.List{tfvalidate.Accounts{Summary: invalidFilter, What: "offers"}},
			},
			"kind": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only offers of this kind: `vps` (virtual servers) or `metal` (dedicated machines). Unset: every kind.",
				Validators:          []validator.String{kindCheck{}},
			},
			adapter.FieldLocation: schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Only offers in this location." + d.registry.Notes(adapter.FieldLocation) +
					" Unset: each account's own default location" + locationSettings(d.registry) + ". " +
					"A location the backend does not know is an error that lists the known ones where the backend lists its locations, and `[]` where it only says where it sells.",
				Validators: []validator.String{locationCheck{}},
			},
			"min_vcpu": schema.Int64Attribute{
				Optional: true, MarkdownDescription: "Only offers with at least this many virtual CPUs. 0 or more; unset or 0: no minimum.",
				Validators: []validator.Int64{atLeastZero{"min_vcpu"}},
			},
			"min_memory_gib": schema.Float64Attribute{
				Optional: true, MarkdownDescription: "Only offers with at least this much memory, in GiB. 0 or more; unset or 0: no minimum.",
				Validators: []validator.Float64{atLeastZero{"min_memory_gib"}},
			},
			"min_gpus": schema.Int64Attribute{
				Optional: true, MarkdownDescription: "Only offers with at least this many GPUs. 0 or more; unset or 0: no minimum.",
				Validators: []validator.Int64{atLeastZero{"min_gpus"}},
			},
			"gpu_model": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Only offers whose GPU model holds these words next to each other and in this order, ignoring case and punctuation, e.g. `A100` " +
					"matches `NVIDIA A100-SXM4-80GB` but not `RTX A1000`. Offers without GPUs never match, so on a backend " +
					"without GPUs any value yields `[]`. Unset: no filter.",
				Validators: []validator.String{gpuModelCheck{}},
			},
			"max_price_per_hour": schema.Float64Attribute{
				Optional: true,
				MarkdownDescription: "Only offers that cost at most this much per hour, in the offer's currency, VAT included " +
					"(the price is gross, as `price_per_hour`). 0 or more; " +
					"unset: no maximum. Offers without a price are left out when this is set, so 0 matches nothing.",
				Validators: []validator.Float64{atLeastZero{"max_price_per_hour"}},
			},
			"offers": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The matching offers, cheapest first; `[]` when nothing matches.",
				NestedObject:        schema.NestedAttributeObject{Attributes: d.offerAttributes()},
			},
		},
		Blocks: map[string]schema.Block{
			"timeouts": tftimeouts.DataSource(ctx, tftimeouts.Op{Default: defaultReadTimeout,
				What: "reading the catalogs of all listed accounts may take, counting the retries of a backend that fails or asks to slow down"}, tftimeouts.Unreachable(adapter.DefaultUnreachable)),
		},
	}
}

func (d *DataSource) offerAttributes() map[string]schema.Attribute {
	notes := d.registry.Notes
	return map[string]schema.Attribute{
		"id": schema.StringAttribute{Computed: true, MarkdownDescription: "The offer's id at its backend, stable from one run to the next; what " +
			"`compute_instance.offer_id` takes. The same id can appear once per account and location." + notes(adapter.FieldOfferID)},
		"account":             schema.StringAttribute{Computed: true, MarkdownDescription: "The id of the account the offer belongs to, as listed in `accounts`; what `compute_instance.account` takes."},
		"kind":                schema.StringAttribute{Computed: true, MarkdownDescription: "`vps` or `metal`."},
		adapter.FieldLocation: schema.StringAttribute{Computed: true, MarkdownDescription: "The location the offer and its price are for; what `compute_instance.location` takes."},
		"description":         schema.StringAttribute{Computed: true, MarkdownDescription: "The backend's description of the offer, for people; not stable."},
		"vcpu":                schema.Int64Attribute{Computed: true, MarkdownDescription: "Virtual CPUs."},
		"memory_gib":          schema.Float64Attribute{Computed: true, MarkdownDescription: "Memory in GiB."},
		"disk_gib":            schema.Int64Attribute{Computed: true, MarkdownDescription: "Local disk in GiB."},
		"gpus":                schema.Int64Attribute{Computed: true, MarkdownDescription: "GPUs; 0 without."},
		"gpu_model":           schema.StringAttribute{Computed: true, MarkdownDescription: "The backend's name for the GPUs' model, e.g. `NVIDIA A100 80GB`; empty without GPUs."},
		adapter.FieldPricePerHour: schema.Float64Attribute{Computed: true, MarkdownDescription: "Price per hour, gross: VAT included; 0 when the " +
			"backend has no price." + notes(adapter.FieldPricePerHour)},
		"price_per_month": schema.Float64Attribute{Computed: true, MarkdownDescription: "Price per month, gross, on backends that rent by " +
			"the month (dedicated servers); `price_per_hour` is then this price spread over 730 hours. Null where the backend bills by the hour."},
		"setup_fee": schema.Float64Attribute{Computed: true, MarkdownDescription: "One-time setup fee, gross, charged when a server of the " +
			"offer is ordered; null where there is none."},
		"currency":  schema.StringAttribute{Computed: true, MarkdownDescription: "Currency of the price, e.g. `EUR`; empty without a price."},
		"available": schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the offer is on sale in its location now; a sold-out offer is listed with `false`, and `compute_instance` refuses it at plan time."},
	}
}

// locationSettings names the account settings that give a default
// location, for the docs: " (`BLOCK.SETTING`, ...)".
func locationSettings(reg *adapter.Registry) string {
	var names []string
	for _, def := range reg.Definitions() {
		if s, ok := def.Setting(adapter.RoleLocation); ok {
			names = append(names, "`"+def.BlockName()+"."+s.Name+"`")
		}
	}
	if len(names) == 0 {
		return ""
	}
	return " (" + strings.Join(names, ", ") + ")"
}
