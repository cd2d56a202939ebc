package offers

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

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
					"price_per_hour": schema.Float64Attribute{Computed: true, MarkdownDescription: "Price per hour, gross: VAT included (for Hetzner Cloud the API's gross price, \"price with VAT added\", not its net price). 0 when the backend has no price."},
					"currency":       schema.StringAttribute{Computed: true, MarkdownDescription: "Currency of the price, e.g. `EUR`; empty without a price."},
					"available":      schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the offer is on sale in its location now; a sold-out offer is listed with `false`, and `compute_instance` refuses it at plan time."},
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
		offers, err := acc.ListOffers(ctx, q)
		if err != nil {
			addListError(ctx, &resp.Diagnostics, p, i, shown, loc, q, err)
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

// addListError reports a failed listing of accounts[i] on the attribute it
// concerns, with the way out a data source has: it has no timeouts block.
// id is the account's id as RedactID shows it.
func addListError(ctx context.Context, diags *diag.Diagnostics, p path.Path, i int, id string, loc adapter.Locator, q adapter.Query, err error) {
	const summary = "Unable to list offers"
	at := func(field string) (path.Path, bool) {
		switch field {
		case "kind", "min_vcpu", "min_memory_gib", "min_gpus", "max_price_per_hour":
			return path.Root(field), true
		case "location":
			if q.Location != "" {
				return path.Root(field), true
			}
		}
		return p, true
	}
	detail := fmt.Sprintf("Listing the offers of account %s with filters %s failed. %s", id, describe(q), wayOut(err, loc))
	switch {
	case ctx.Err() != nil:
		// Terraform stopped the command (Ctrl-C): the backend is not to blame.
		detail = fmt.Sprintf("Listing the offers of account %s was interrupted, because the command was stopped. Run the command again.", id)
	case tfdiag.UnknownUntilApply(err):
		detail = fmt.Sprintf("The offers of account %s cannot be listed during plan: its secret comes from the provider block's secrets, "+
			"which are not known until apply. Use an env:// or file:// reference for accounts that compute_offers reads.", id)
	case adapter.Unresolved(err):
		// Unlike a plan-time check, a data source cannot wait for apply:
		// its result is part of the plan.
		detail = fmt.Sprintf("The offers of account %s cannot be listed: its secret reference cannot be resolved where Terraform runs, and "+
			"compute_offers is read during plan, so the secret must be there already. Set it in the environment that runs terraform plan, "+
			"or fix the reference.", id)
	case adapter.FieldOf(err) == "location" && q.Location == "":
		detail = fmt.Sprintf("Listing the offers of accounts[%d] (%s) failed: compute_offers sets no location, so the account's own location %s was used, "+
			"and the backend does not know it. Fix the location setting of the compute_provider_account, or set location on this data source.",
			i, id, adapter.Quoted(adapter.Redacted(loc.Settings["location"])))
	}
	tfdiag.AddError(diags, at, summary, detail, err)
}

// wayOut is tfdiag.WayOut, except for failures to reach the backend: a data
// source has no timeouts block to raise.
func wayOut(err error, loc adapter.Locator) string {
	switch adapter.CodeOf(err) {
	case adapter.Transient, adapter.RateLimited:
		backend := "backend"
		if ep := loc.Settings["endpoint"]; ep != "" {
			backend = "endpoint " + adapter.Redacted(ep)
		}
		return "The backend could not be reached, did not answer in time or asked to slow down; check that the account's " +
			backend + " is reachable from where Terraform runs, then run the command again."
	}
	return tfdiag.WayOut(err)
}
