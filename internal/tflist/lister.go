package tflist

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
)

// summary heads a failure to list the machines of the accounts.
const summary = "Unable to list machines"

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
	// user wrote: compute_machines' own for the data source, listArgument for a
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
// then, before the read. It returns the accounts it read, for further
// checks of the caller's own; nil when there are none to check.
func (l Lister) Validate(ctx context.Context, config tfsdk.Config, diags *diag.Diagnostics) []types.String {
	var ids types.List
	diags.Append(config.GetAttribute(ctx, path.Root("accounts"), &ids)...)
	if diags.HasError() || ids.IsNull() || ids.IsUnknown() || l.Registry == nil {
		return nil
	}
	out := make([]types.String, 0, len(ids.Elements()))
	for i, v := range ids.Elements() {
		s, ok := v.(types.String)
		if !ok {
			continue
		}
		out = append(out, s)
		if s.IsNull() || s.IsUnknown() {
			continue
		}
		if detail, ok := checkInventory(l.Registry, i, s.ValueString()); !ok {
			diags.AddAttributeError(path.Root("accounts").AtListIndex(i), l.Summary, detail)
		}
	}
	checkLabels(ctx, l.Registry, config, l.Summary, diags)
	return out
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

// target is one listed account, opened.
type target struct {
	index     int
	listed    string // the id as listed in accounts
	shown     string // the account as messages name it (Registry.Label)
	locator   adapter.Locator
	acc       *adapter.Cached
	inventory adapter.Inventory
	// endpoint is the account's endpoint setting, found by its role, for
	// the way out of a failure to reach it; "" when the adapter has none.
	endpoint string
}

// open checks and opens every listed account, reporting each refusal on
// its list index.
func (l Lister) open(ids []types.String, diags *diag.Diagnostics) []target {
	var out []target
	seen := map[string]int{}
	for i, id := range ids {
		p := path.Root("accounts").AtListIndex(i)
		acc, loc, err := l.Accounts.Open(id.ValueString())
		if err == nil {
			// Filled defaults: the instance id matches what an import of it
			// and compute_provider_account compute from the same settings.
			loc, err = l.Accounts.Registry.Checked(loc)
		}
		if err != nil {
			// Redacted: a secret pasted into an id must not be printed back.
			diags.AddAttributeError(p, summary,
				fmt.Sprintf("%s is not a compute_provider_account id: %s\n\nUse the id attribute of a compute_provider_account, e.g. compute_provider_account.cloud.id.",
					adapter.Show(fmt.Sprintf("accounts[%d]", i), adapter.RedactID(id.ValueString())), tfdiag.Message(err)))
			continue
		}
		// ValidateConfig has refused adapters without the capability:
		// Terraform validates the configuration a read gets right before it.
		inv, ok := acc.Adapter.(adapter.Inventory)
		if !ok {
			diags.AddAttributeError(p, summary, fmt.Sprintf("The %s adapter declares the %s capability but does not implement it; this is a bug in the provider.", loc.Kind, adapter.CapInventory))
			continue
		}
		// The same account in two spellings of its id (settings in another
		// order, a default left out) would list each of its machines twice.
		// Messages name the account, never its whole id.
		shown := l.Registry.Label(loc)
		if first, dup := seen[loc.Key()]; dup {
			diags.AddAttributeError(p, summary,
				fmt.Sprintf("%s is the same account as accounts[%d]; list each account once, or its machines appear twice.",
					fmt.Sprintf("accounts[%d] (account %s)", i, shown), first))
			continue
		}
		seen[loc.Key()] = i
		out = append(out, target{index: i, listed: id.ValueString(), shown: shown, locator: loc, acc: acc, inventory: inv, endpoint: endpointOf(l.Registry, loc)})
	}
	return out
}

// endpointOf is the account's endpoint for messages, its default when the
// locator leaves it out.
func endpointOf(reg *adapter.Registry, loc adapter.Locator) string {
	def, err := reg.Definition(loc.Kind)
	if err != nil {
		return ""
	}
	return tfdiag.Endpoint(def, loc.Settings, reg.Environment())
}
