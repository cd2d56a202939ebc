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
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
	"github.com/seedcompute/terraform-provider-compute/internal/tftimeouts"
)

// DataSource is compute_offers.
type DataSource struct {
	registry *adapter.Registry
	accounts *adapter.Accounts // nil until the provider is configured
}

var _ datasource.DataSourceWithConfigure = (*DataSource)(nil)

// New returns the data source for the adapter kinds in reg, whose
// definitions document what offers are on each backend.
func New(reg *adapter.Registry) datasource.DataSource { return &DataSource{registry: reg} }

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

func (d *DataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_offers"
}

func (d *DataSource) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	if req.ProviderData == nil {
		return
	}
	a, ok := req.ProviderData.(*adapter.Accounts)
	if !ok {
		resp.Diagnostics.AddError("Unable to configure offers", fmt.Sprintf("compute_offers expected *adapter.Accounts, got %T; this is a bug in the provider.", req.ProviderData))
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
	all := d.listAll(ctx, command, m, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	sortOffers(all)
	list, diags := toList(all)
	resp.Diagnostics.Append(diags...)
	m.Offers = list
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// summary heads every diagnostic of a failed read.
const summary = "Unable to list offers"

// query is the contract's query for the filters the configuration sets.
func query(m model) adapter.Query {
	return adapter.Query{
		Kind:            m.Kind.ValueString(),
		Location:        m.Location.ValueString(),
		MinVCPU:         int(m.MinVCPU.ValueInt64()),
		MinMemoryGiB:    m.MinMemoryGiB.ValueFloat64(),
		MinGPUs:         int(m.MinGPUs.ValueInt64()),
		GPUModel:        m.GPUModel.ValueString(),
		MaxPricePerHour: m.MaxPricePerHour.ValueFloat64(),
	}
}

// listAll lists the matching offers of every account, each account once;
// command is Terraform's context, ctx the read's timeout within it.
func (d *DataSource) listAll(ctx, command context.Context, m model, diags *diag.Diagnostics) []found {
	q := query(m)
	p := adapter.PlanReads(tftimeouts.UnreachableOf(m.Timeouts.Object, adapter.DefaultUnreachable))
	var all []found
	seen := map[string]int{}
	for i, id := range m.Accounts {
		offers := d.listAccount(ctx, command, i, id.ValueString(), q, p, seen, diags)
		for _, o := range offers {
			// The contract reads a zero maximum as "no maximum"; here an
			// explicit 0 is a maximum that nothing priced meets.
			if !m.MaxPricePerHour.IsNull() && (o.PricePerHour <= 0 || o.PricePerHour > q.MaxPricePerHour) {
				continue
			}
			all = append(all, found{Offer: o, account: id.ValueString()})
		}
	}
	return all
}

// listAccount lists the offers of accounts[i], id, under the read policy
// rp, unless seen holds the same account under another spelling of its id.
func (d *DataSource) listAccount(ctx, command context.Context, i int, id string, q adapter.Query, rp adapter.ReadPolicy, seen map[string]int, diags *diag.Diagnostics) []adapter.Offer {
	p := path.Root("accounts").AtListIndex(i)
	acc, loc, err := d.accounts.Open(id)
	if err != nil {
		// Redacted: a secret pasted into an id must not be printed back.
		diags.AddAttributeError(p, summary,
			fmt.Sprintf("%s is not a compute_provider_account id: %s\n\nUse the id attribute of a compute_provider_account, e.g. compute_provider_account.cloud.id.",
				adapter.Show(fmt.Sprintf("accounts[%d]", i), adapter.RedactID(id)), tfdiag.Message(err)))
		return nil
	}
	// The same account in two spellings of its id (settings in another
	// order, a default left out) would list each of its offers twice.
	if norm, err := d.accounts.Registry.Checked(loc); err == nil {
		loc = norm
	}
	// Messages name the account, never its whole id.
	shown := d.accounts.Registry.Label(loc)
	if first, dup := seen[loc.Key()]; dup {
		diags.AddAttributeError(p, summary,
			fmt.Sprintf("%s is the same account as accounts[%d]; list each account once, or its offers appear twice.",
				fmt.Sprintf("accounts[%d] (account %s)", i, shown), first))
		return nil
	}
	seen[loc.Key()] = i
	var offers []adapter.Offer
	err = acc.PlanRead(ctx, rp, "list the offers of accounts["+strconv.Itoa(i)+"]", func(ctx context.Context) error {
		offers, err = acc.ListOffers(ctx, q)
		return err
	})
	if err != nil {
		def, _ := d.accounts.Registry.Definition(loc.Kind)
		addListError(command, diags, p, i, shown, def, d.accounts.Registry.Environment(), loc, q, err)
		return nil
	}
	return offers
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
			"id":                      types.StringValue(o.ID),
			"account":                 types.StringValue(o.account),
			"kind":                    types.StringValue(o.Kind),
			adapter.FieldLocation:     types.StringValue(o.Location),
			"description":             types.StringValue(o.Description),
			"vcpu":                    types.Int64Value(int64(o.VCPU)),
			"memory_gib":              types.Float64Value(o.MemoryGiB),
			"disk_gib":                types.Int64Value(int64(o.DiskGiB)),
			"gpus":                    types.Int64Value(int64(o.GPUs)),
			"gpu_model":               types.StringValue(o.GPUModel),
			adapter.FieldPricePerHour: types.Float64Value(o.PricePerHour),
			"price_per_month":         nonZero(o.PricePerMonth),
			"setup_fee":               nonZero(o.SetupFee),
			"currency":                types.StringValue(o.Currency),
			"available":               types.BoolValue(o.Available),
		}))
	}
	return types.ListValue(types.ObjectType{AttrTypes: offerTypes}, elems)
}

// nonZero is null for 0: a price the backend does not bill, as opposed to
// one that is free.
func nonZero(v float64) types.Float64 {
	if v == 0 {
		return types.Float64Null()
	}
	return types.Float64Value(v)
}
