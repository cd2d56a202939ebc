package tflist

import (
	"time"

	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/tfvalidate"
)

// What the accounts and filters mean, said alike by compute_machines and
// the list resources.
const (
	DocAccounts = "Ids of the `compute_provider_account`s whose machines to list, e.g. " +
		"`[compute_provider_account.cloud.id]`. At least one, each listed once, each of an adapter that can list " +
		"every machine of an account."
	DocManaged = "`true`: only machines that carry the provider's mark; `false`: only machines it did not " +
		"create or has not adopted yet, the ones to import. Unset: both."
	DocNamePrefix = "Only machines whose name starts with this, e.g. `web-`. Unset: every name."
	DocNameRegex  = "Only machines whose name matches this regular expression (RE2 syntax, as Terraform's " +
		"`regex` function), anywhere in the name unless anchored, e.g. `^web-[0-9]+$`. Unset: every name."
	DocLabels = "Only machines that carry every one of these labels with exactly this value, e.g. " +
		"`{ role = \"web\" }`; other labels do not matter. The provider's own marks are not labels here. A key or value that " +
		"no listed account's adapter lets a machine carry is refused, as `compute_instance` refuses it. Unset: no filter."
	DocStates = "Only machines in one of these states: `pending`, `running`, `stopped`, `rescue`, " +
		"`deleting`, `deleted`, `error` or `unknown`. Unset: every state, including machines being deleted; to adopt a fleet, " +
		"`[\"running\", \"stopped\"]` leaves those out."
)

// docGenerated is what every list resource says, after its own More, of
// the configuration `terraform query -generate-config-out` writes from it.
const docGenerated = " Each `account`, in the resource block and in the `import` block's `identity`, is the account's literal " +
	"id: replace both with a reference such as `compute_provider_account.NAME.id`. The first apply after the import writes " +
	"the provider's mark on each machine that lacks it; the next plan is empty."

// DefaultReadTimeout bounds a listing of every listed account's inventory,
// retries included: a list block's, and compute_machines' unless its
// timeouts block says otherwise.
const DefaultReadTimeout = 5 * time.Minute

// ListSchema is the configuration of a list resource over machines (a
// `list` block of `terraform query`, Terraform 1.14 and later): the
// accounts and filters of compute_machines; what names the resource each
// result is ("compute_instance"), more is said of that resource's results
// before what every list resource says of them (docGenerated).
func ListSchema(what, more string) schema.Schema {
	refused := listArgument(what)
	return schema.Schema{
		MarkdownDescription: "Every machine of one or more accounts that matches the filters, as `" + what + "`, for `terraform query`: " +
			"each result carries the machine's identity (its account and id), so that `terraform query -generate-config-out=FILE` " +
			"writes an `import` block and a `" + what + "` block for it; with `include_resource = true` each result holds the " +
			"whole resource too. The filters are those of the `compute_machines` data source, which adopts a fleet on Terraform " +
			"before 1.14 and on OpenTofu." + more + docGenerated,
		Attributes: map[string]schema.Attribute{
			"accounts": schema.ListAttribute{
				ElementType:         types.StringType,
				Required:            true,
				MarkdownDescription: DocAccounts,
				Validators:          []validator.List{tfvalidate.Accounts{Summary: refused, What: "machines"}},
			},
			"managed":     schema.BoolAttribute{Optional: true, MarkdownDescription: DocManaged},
			"name_prefix": schema.StringAttribute{Optional: true, MarkdownDescription: DocNamePrefix, Validators: []validator.String{NotEmpty{Summary: refused, Name: "name_prefix", Example: "a prefix such as \"web-\""}}},
			"name_regex":  schema.StringAttribute{Optional: true, MarkdownDescription: DocNameRegex, Validators: []validator.String{RegexCheck{refused}}},
			"labels":      schema.MapAttribute{ElementType: types.StringType, Optional: true, MarkdownDescription: DocLabels},
			// A list: list blocks have no sets.
			"states": schema.ListAttribute{
				ElementType: types.StringType, Optional: true, MarkdownDescription: DocStates,
				Validators: []validator.List{StatesCheck{refused}},
			},
		},
	}
}
