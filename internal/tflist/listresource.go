package tflist

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tfidentity"
)

// ListResource is the list resource of a machine resource (`list` blocks
// of `terraform query`, Terraform 1.14 and later), under the resource's
// own type name, as the AWS provider names its list resources: every
// machine the filters keep, with its identity, and the resource as Object
// makes it when Terraform asks for it. The resource packages make one
// each (instance.NewList, bootstrap.NewList).
type ListResource struct {
	TypeName string
	// More is said of the list resource after what every one says.
	More string
	// Object fills the resource a result holds from the machine; the
	// resource starts out null.
	Object func(context.Context, Found, *tfsdk.Resource) diag.Diagnostics
	// Refuse, when set, is the refusal of an account whose machines the
	// resource cannot hold ("" when it can), the resource's own words: a
	// query refuses it on its list index instead of listing machines whose
	// generated configuration the plan then refuses.
	Refuse func(reg *adapter.Registry, accountID string) string
	lister Lister
}

var (
	_ list.ListResourceWithConfigure      = (*ListResource)(nil)
	_ list.ListResourceWithValidateConfig = (*ListResource)(nil)
)

// NewListResource is a list resource of typeName over reg's adapters.
func NewListResource(reg *adapter.Registry, typeName, more string, object func(context.Context, Found, *tfsdk.Resource) diag.Diagnostics) *ListResource {
	return &ListResource{TypeName: typeName, More: more, Object: object, lister: Lister{Registry: reg, Summary: listArgument(typeName), Query: true}}
}

func (l *ListResource) Metadata(_ context.Context, _ resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = l.TypeName
}

func (l *ListResource) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = ListSchema(l.TypeName, l.More)
}

func (l *ListResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if req.ProviderData == nil {
		return
	}
	a, ok := req.ProviderData.(*adapter.Accounts)
	if !ok {
		resp.Diagnostics.AddError(summary, fmt.Sprintf("The %s list resource expected *adapter.Accounts, got %T; this is a bug in the provider.", l.TypeName, req.ProviderData))
		return
	}
	l.lister.Accounts = a
}

func (l *ListResource) ValidateListResourceConfig(ctx context.Context, req list.ValidateConfigRequest, resp *list.ValidateConfigResponse) {
	ids := l.lister.Validate(ctx, req.Config, &resp.Diagnostics)
	if !resp.Diagnostics.HasError() {
		l.refuseAccounts(ids, &resp.Diagnostics)
	}
}

// refuseAccounts refuses, on its list index, each known account that
// Refuse refuses.
func (l *ListResource) refuseAccounts(ids []types.String, diags *diag.Diagnostics) {
	if l.Refuse == nil || l.lister.Registry == nil {
		return
	}
	for i, id := range ids {
		if id.IsNull() || id.IsUnknown() {
			continue
		}
		if detail := l.Refuse(l.lister.Registry, id.ValueString()); detail != "" {
			diags.AddAttributeError(path.Root("accounts").AtListIndex(i), l.lister.Summary, fmt.Sprintf("accounts[%d]: %s", i, detail))
		}
	}
}

// List lists the accounts' machines as compute_machines does, within its
// default read timeout, and streams them in its order, at most req.Limit.
// A failure to list any account is the one result, its diagnostics.
func (l *ListResource) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	if l.lister.Accounts != nil {
		ctx = l.lister.Accounts.Logging(ctx)
	}
	var f Filters
	diags := req.Config.Get(ctx, &f)
	var all []Found
	if !diags.HasError() {
		unknownAccounts(f.Accounts, l.lister.Summary, &diags)
		l.refuseAccounts(f.Accounts, &diags)
	}
	if !diags.HasError() {
		all = l.lister.List(ctx, f, DefaultReadTimeout, adapter.DefaultUnreachable, &diags)
	}
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	stream.Results = func(push func(list.ListResult) bool) {
		for i, found := range all {
			if req.Limit > 0 && int64(i) >= req.Limit {
				return
			}
			if !push(l.result(ctx, req, found)) {
				return
			}
		}
	}
}

// result is one machine as a list result: named by its name and id, with
// its identity, and the resource when Terraform asked for it.
func (l *ListResource) result(ctx context.Context, req list.ListRequest, f Found) list.ListResult {
	r := req.NewListResult(ctx)
	r.DisplayName = fmt.Sprintf("%s (%s)", f.Name, f.ID)
	r.Diagnostics.Append(r.Identity.Set(ctx, tfidentity.Model{Account: types.StringValue(f.Account), ID: types.StringValue(f.ID)})...)
	if req.IncludeResource {
		r.Diagnostics.Append(l.Object(ctx, f, r.Resource)...)
	}
	return r
}

// unknownAccounts refuses an account id that is not known yet, under the
// list block's summary: a query reads the state, so an account that was
// never applied has no id there.
func unknownAccounts(ids []types.String, summary string, diags *diag.Diagnostics) {
	for i, id := range ids {
		if id.IsUnknown() {
			diags.AddAttributeError(path.Root("accounts").AtListIndex(i), summary, fmt.Sprintf(
				"accounts[%d] is not known yet: the compute_provider_account it names has not been applied. Run terraform apply "+
					"for the account first, then terraform query.", i))
		}
	}
}

// SetAttributes sets each named attribute of a list result's resource, for
// the resource packages' Object functions.
func SetAttributes(ctx context.Context, into *tfsdk.Resource, values map[string]attr.Value) diag.Diagnostics {
	var diags diag.Diagnostics
	for name, v := range values {
		diags.Append(into.SetAttribute(ctx, path.Root(name), v)...)
	}
	return diags
}
