package offers

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
	"github.com/seedcompute/terraform-provider-compute/internal/tftimeouts"
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
	GPUModel        types.String   `tfsdk:"gpu_model"`
	MaxPricePerHour types.Float64  `tfsdk:"max_price_per_hour"`
	Offers          types.List     `tfsdk:"offers"`
	Timeouts        timeouts.Value `tfsdk:"timeouts"`
}

// defaultReadTimeout bounds a read of every listed account's catalog,
// retries included, unless the timeouts block says otherwise.
const defaultReadTimeout = 5 * time.Minute

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
	"gpu_model":      types.StringType,
	"price_per_hour": types.Float64Type,
	"currency":       types.StringType,
	"available":      types.BoolType,
}

func (d *DataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_offers"
}

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
				Validators: []validator.List{accountsCheck{}},
			},
			"kind": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Only offers of this kind: `vps` (virtual servers) or `metal` (dedicated machines). Unset: every kind.",
				Validators:          []validator.String{kindCheck{}},
			},
			"location": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Only offers in this location, e.g. `fsn1`. Unset: each account's own location " +
					"(its `location` setting). A location the backend does not know is an error that lists the known ones.",
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
				MarkdownDescription: "Only offers whose GPU model holds these words, in this order, ignoring case and punctuation, e.g. `A100` " +
					"matches `NVIDIA A100-SXM4-80GB` but not `RTX A1000`. Offers without GPUs never match, so on a backend " +
					"without GPUs (Hetzner Cloud) any value yields `[]`. Unset: no filter.",
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
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"id":             schema.StringAttribute{Computed: true, MarkdownDescription: "The offer's id at its backend (for Hetzner Cloud the server type name, e.g. `cx22`), stable from one run to the next; what `compute_instance.offer_id` takes. The same id can appear once per account and location."},
					"account":        schema.StringAttribute{Computed: true, MarkdownDescription: "The id of the account the offer belongs to, as listed in `accounts`; what `compute_instance.account` takes."},
					"kind":           schema.StringAttribute{Computed: true, MarkdownDescription: "`vps` or `metal`."},
					"location":       schema.StringAttribute{Computed: true, MarkdownDescription: "The location the offer and its price are for; what `compute_instance.location` takes."},
					"description":    schema.StringAttribute{Computed: true, MarkdownDescription: "The backend's description of the offer, for people; not stable."},
					"vcpu":           schema.Int64Attribute{Computed: true, MarkdownDescription: "Virtual CPUs."},
					"memory_gib":     schema.Float64Attribute{Computed: true, MarkdownDescription: "Memory in GiB."},
					"disk_gib":       schema.Int64Attribute{Computed: true, MarkdownDescription: "Local disk in GiB."},
					"gpus":           schema.Int64Attribute{Computed: true, MarkdownDescription: "GPUs; 0 without."},
					"gpu_model":      schema.StringAttribute{Computed: true, MarkdownDescription: "The backend's name for the GPUs' model, e.g. `NVIDIA A100 80GB`; empty without GPUs."},
					"price_per_hour": schema.Float64Attribute{Computed: true, MarkdownDescription: "Price per hour, gross: VAT included (for Hetzner Cloud the API's gross price, \"price with VAT added\", not its net price). 0 when the backend has no price."},
					"currency":       schema.StringAttribute{Computed: true, MarkdownDescription: "Currency of the price, e.g. `EUR`; empty without a price."},
					"available":      schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the offer is on sale in its location now; a sold-out offer is listed with `false`, and `compute_instance` refuses it at plan time."},
				}},
			},
		},
		Blocks: map[string]schema.Block{
			"timeouts": tftimeouts.DataSource(ctx, tftimeouts.Op{Default: defaultReadTimeout,
				What: "reading the catalogs of all listed accounts may take, counting the retries of a backend that fails or asks to slow down"}),
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

// Read lists the offers of every account, retrying a catalog whose backend
// fails or asks to slow down until the read timeout.
func (d *DataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	ctx = d.accounts.Logging(ctx)
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
	timeout, diags := m.Timeouts.Read(ctx, defaultReadTimeout)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	// Terraform's own context tells a stopped command from a spent timeout.
	command := ctx
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	q := adapter.Query{
		Kind:            m.Kind.ValueString(),
		Location:        m.Location.ValueString(),
		MinVCPU:         int(m.MinVCPU.ValueInt64()),
		MinMemoryGiB:    m.MinMemoryGiB.ValueFloat64(),
		MinGPUs:         int(m.MinGPUs.ValueInt64()),
		GPUModel:        m.GPUModel.ValueString(),
		MaxPricePerHour: m.MaxPricePerHour.ValueFloat64(),
	}
	var all []found
	seen := map[string]int{}
	for i, id := range m.Accounts {
		p := path.Root("accounts").AtListIndex(i)
		// Ids are shown redacted: a secret pasted into one must not be
		// printed back.
		shown := adapter.RedactID(id.ValueString())
		acc, loc, err := d.accounts.Open(id.ValueString())
		if err != nil {
			resp.Diagnostics.AddAttributeError(p, summary,
				fmt.Sprintf("%s is not a compute_provider_account id: %s\n\nUse the id attribute of a compute_provider_account, e.g. compute_provider_account.cloud.id.",
					adapter.Show(fmt.Sprintf("accounts[%d]", i), shown), tfdiag.Message(err)))
			continue
		}
		// The same account in two spellings of its id (settings in another
		// order, a default left out) would list each of its offers twice.
		if norm, err := d.accounts.Registry.Locate(loc.Kind, loc.Settings); err == nil {
			loc = norm
		}
		if first, dup := seen[loc.String()]; dup {
			resp.Diagnostics.AddAttributeError(p, summary,
				fmt.Sprintf("%s is the same account as accounts[%d]; list each account once, or its offers appear twice.",
					adapter.Show(fmt.Sprintf("accounts[%d]", i), shown), first))
			continue
		}
		seen[loc.String()] = i
		var offers []adapter.Offer
		err = adapter.Retry(ctx, d.accounts.Env.Clock, adapter.DefaultBackoff, "list the offers of accounts["+strconv.Itoa(i)+"]", func(ctx context.Context) error {
			offers, err = acc.ListOffers(ctx, q)
			return err
		})
		if err != nil {
			addListError(command, &resp.Diagnostics, p, i, shown, loc, q, err)
			continue
		}
		for _, o := range offers {
			// The contract reads a zero maximum as "no maximum"; here an
			// explicit 0 is a maximum that nothing priced meets.
			if !m.MaxPricePerHour.IsNull() && (o.PricePerHour <= 0 || o.PricePerHour > q.MaxPricePerHour) {
				continue
			}
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

// sortOffers orders by price, then id, account and location; offers without
// a price (0) come last, so the first offer is the cheapest priced one. The
// order is total, so the list never depends on which account answered first.
func sortOffers(all []found) {
	slices.SortStableFunc(all, func(a, b found) int {
		ap, bp := a.PricePerHour == 0, b.PricePerHour == 0
		switch {
		case ap != bp && ap:
			return 1
		case ap != bp:
			return -1
		}
		return cmp.Or(cmp.Compare(a.PricePerHour, b.PricePerHour), cmp.Compare(a.ID, b.ID), cmp.Compare(a.account, b.account),
			cmp.Compare(a.Location, b.Location))
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
			"gpu_model":      types.StringValue(o.GPUModel),
			"price_per_hour": types.Float64Value(o.PricePerHour),
			"currency":       types.StringValue(o.Currency),
			"available":      types.BoolValue(o.Available),
		}))
	}
	return types.ListValue(types.ObjectType{AttrTypes: offerTypes}, elems)
}
