package bootstrap

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tfdiag"
	"github.com/seedcompute/terraform-provider-compute/internal/tfidentity"
	"github.com/seedcompute/terraform-provider-compute/internal/tfstate"
)

const typeName = "compute_bootstrap_host"

// Resource is compute_bootstrap_host.
type Resource struct {
	registry *adapter.Registry
	accounts *adapter.Accounts // nil until the provider is configured
}

var (
	_ resource.ResourceWithConfigure      = (*Resource)(nil)
	_ resource.ResourceWithModifyPlan     = (*Resource)(nil)
	_ resource.ResourceWithImportState    = (*Resource)(nil)
	_ resource.ResourceWithValidateConfig = (*Resource)(nil)
	_ resource.ResourceWithIdentity       = (*Resource)(nil)
	_ resource.ResourceWithUpgradeState   = (*Resource)(nil)
)

// New returns the resource for the adapter kinds in reg; the provider lists
// it.
func New(reg *adapter.Registry) resource.Resource { return &Resource{registry: reg} }

func (r *Resource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = typeName
	// The identity holds the account, which a re-point changes in place
	// (repoint.go) while the machine stays the same one.
	resp.ResourceBehavior.MutableIdentity = true
}

// IdentitySchema is the account and the machine's id (Terraform 1.12 and
// later), which an import block's identity names a machine by.
func (r *Resource) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = tfidentity.Schema("bootstrap host")
}

func (r *Resource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = resourceSchema(r.registry)
}

// UpgradeState reads states of version 0, whose id was
// ACCOUNT_ID/MACHINE_ID.
func (r *Resource) UpgradeState(context.Context) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{0: tfstate.Rewrite(tfstate.MachineIDs)}
}

func (r *Resource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if req.ProviderData == nil {
		return
	}
	a, ok := req.ProviderData.(*adapter.Accounts)
	if !ok {
		resp.Diagnostics.AddError("Unable to configure bootstrap host", fmt.Sprintf("%s expected *adapter.Accounts, got %T; this is a bug in the provider.", typeName, req.ProviderData))
		return
	}
	r.accounts = a
}

func (r *Resource) clock() adapter.Clock { return r.accounts.Env.Clock }

// bootstrapKinds names, for the documentation, the account blocks whose
// adapter can bootstrap.
func bootstrapKinds(reg *adapter.Registry) string {
	var blocks []string
	for _, d := range reg.Definitions() {
		if d.Capabilities.Has(adapter.CapBootstrap) {
			blocks = append(blocks, "`"+d.BlockName()+"`")
		}
	}
	if len(blocks) == 0 {
		return ""
	}
	return " Accounts that can: " + strings.Join(blocks, ", ") + "."
}

// host is an account opened for a bootstrap: the cached adapter, its
// locator and scope, and its Bootstrapper.
type host struct {
	acc   *adapter.Cached
	loc   adapter.Locator
	scope string
	boot  adapter.Bootstrapper
}

// open opens the account a host names; false after an error on account.
func (r *Resource) open(diags *diag.Diagnostics, summary string, account types.String) (host, bool) {
	if r.accounts == nil {
		diags.AddError(summary, "The provider is not configured; this is a bug in the provider.")
		return host{}, false
	}
	acc, loc, err := r.accounts.Open(account.ValueString())
	var scope string
	if err == nil {
		scope, err = r.accounts.Registry.Scope(loc)
	}
	if err != nil {
		diags.AddAttributeError(path.Root("account"), summary,
			fmt.Sprintf("%s cannot be opened: %s", r.registry.DescribeID(account.ValueString()), tfdiag.Message(err)))
		return host{}, false
	}
	b, _ := acc.Adapter.(adapter.Bootstrapper)
	return host{acc: acc, loc: loc, scope: scope, boot: b}, true
}

// target opens the account recorded in state; the host's id is the
// machine's own.
func (r *Resource) target(diags *diag.Diagnostics, summary string, state model) (host, string, bool) {
	machineID := state.ID.ValueString()
	if machineID == "" {
		diags.AddError(summary, "The host has no id in state. Remove it from state (terraform state rm) and import it again with ACCOUNT_ID/MACHINE_ID.")
		return host{}, "", false
	}
	h, ok := r.open(diags, summary, state.Account)
	return h, machineID, ok
}

// retryRead reads the machine, riding out what writes ride out.
func (r *Resource) retryRead(ctx context.Context, id string, get func(context.Context, string) (adapter.Machine, error)) (adapter.Machine, error) {
	var m adapter.Machine
	err := adapter.Retry(ctx, r.clock(), adapter.DefaultBackoff, "read machine "+id, func(ctx context.Context) error {
		var err error
		m, err = get(ctx, id)
		return err
	})
	return m, err
}

// withTimeout bounds an operation by its timeouts attribute.
func withTimeout(ctx context.Context, block types.Object, name string, def time.Duration) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, timeoutOf(block, name, def))
}
