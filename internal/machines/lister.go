package machines

import (
	"context"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// Filters is what compute_machines and the list resources of
// compute_instance and compute_bootstrap_host are configured with: the
// accounts to list and the filters on their machines.
type Filters struct {
	Accounts   []types.String `tfsdk:"accounts"`
	Managed    types.Bool     `tfsdk:"managed"`
	NamePrefix types.String   `tfsdk:"name_prefix"`
	NameRegex  types.String   `tfsdk:"name_regex"`
	Labels     types.Map      `tfsdk:"labels"`
	// States reads a set (compute_machines) and a list (a list block,
	// which has no sets) alike.
	States []string `tfsdk:"states"`
}

// Lister lists the machines of the accounts Filters name. Registry is
// enough to validate a configuration; Accounts, set once the provider is
// configured, is needed to list.
type Lister struct {
	Registry *adapter.Registry
	Accounts *adapter.Accounts
	// Summary heads the refusal of an argument, naming the block the
	// user wrote: invalidArgument for compute_machines, listArgument for a
	// list resource.
	Summary string
	// Query is set for a list block of terraform query, which has no
	// timeouts block: its ways out name none (tfdiag.QueryWayOut).
	Query bool
}

// Validate refuses, on its list index, an account whose adapter cannot list
// every machine, and a labels filter no listed account's machine can
// carry (checkLabels). Terraform validates the configuration as written and again
// with the values a read gets, so an id known only at apply is refused
// then, before the read.
func (l Lister) Validate(ctx context.Context, config tfsdk.Config, diags *diag.Diagnostics) {
	var ids types.List
	diags.Append(config.GetAttribute(ctx, path.Root("accounts"), &ids)...)
	if diags.HasError() || ids.IsNull() || ids.IsUnknown() || l.Registry == nil {
		return
	}
	for i, v := range ids.Elements() {
		s, ok := v.(types.String)
		if !ok || s.IsNull() || s.IsUnknown() {
			continue
		}
		if detail, ok := checkInventory(l.Registry, i, s.ValueString()); !ok {
			diags.AddAttributeError(path.Root("accounts").AtListIndex(i), l.Summary, detail)
		}
	}
	checkLabels(ctx, l.Registry, config, l.Summary, diags)
}

// List lists every account's machines, retrying an inventory whose backend
// fails or asks to slow down until timeout (an endpoint that cannot be
// reached is given up after unreachable), and returns those that match the
// filters, sorted by account, name and machine id. Accounts are all checked
// before any is listed. nil after an error in diags.
func (l Lister) List(ctx context.Context, f Filters, timeout, unreachable time.Duration, diags *diag.Diagnostics) []Found {
	if l.Accounts == nil {
		diags.AddError(summary, "The provider is not configured; this is a bug in the provider.")
		return nil
	}
	keep, d := newFilter(ctx, &f)
	diags.Append(d...)
	targets := l.open(f.Accounts, diags)
	if diags.HasError() {
		return nil
	}
	// Terraform's own context tells a stopped command from a spent timeout.
	command := ctx
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	rp := adapter.PlanReads(unreachable)
	all := []Found{}
	for _, t := range targets {
		var ms []adapter.Machine
		err := t.acc.PlanRead(ctx, rp, "list the machines of accounts["+strconv.Itoa(t.index)+"]", func(ctx context.Context) error {
			var err error
			ms, err = t.inventory.Inventory(ctx)
			return err
		})
		if err != nil {
			addListError(command, diags, t, err, l.Query)
			continue
		}
		for _, mc := range ms {
			if keep.keep(mc) {
				all = append(all, Found{Machine: mc, Account: t.listed, ImportID: adapter.InstanceID(t.locator, mc.ID)})
			}
		}
	}
	if diags.HasError() {
		return nil
	}
	sortMachines(all)
	return all
}
