package machines

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/datasource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tflist"
	"github.com/seedcompute/terraform-provider-compute/internal/tftimeouts"
	"github.com/seedcompute/terraform-provider-compute/internal/tfvalidate"
)

type model struct {
	tflist.Filters
	Machines types.List     `tfsdk:"machines"`
	Timeouts timeouts.Value `tfsdk:"timeouts"`
}

var machineTypes = map[string]attr.Type{
	"id":                  types.StringType,
	"machine_id":          types.StringType,
	"account":             types.StringType,
	"name":                types.StringType,
	"managed":             types.BoolType,
	"state":               types.StringType,
	"raw_state":           types.StringType,
	"offer_id":            types.StringType,
	"image":               types.StringType,
	adapter.FieldLocation: types.StringType,
	"labels":              types.MapType{ElemType: types.StringType},
	"ipv4_address":        types.StringType,
	"ipv6_address":        types.StringType,
	"created_at":          types.StringType,
}

// dataSourceSchema is the schema; what a value is on each backend comes from
// the registry's definitions (Definition.Notes).
func dataSourceSchema(ctx context.Context, reg *adapter.Registry) schema.Schema {
	return schema.Schema{
		MarkdownDescription: "Every machine of one or more accounts that matches the filters, those the provider manages and " +
			"those it did not create (`managed = false`), with the state `compute_instance` shows, sorted by account, name " +
			"and machine id. Feed it to `import` blocks with `for_each` to adopt a whole fleet; the first apply after the " +
			"import marks each machine as managed. Reading it changes nothing. No match yields `[]`, never an error.",
		Attributes: map[string]schema.Attribute{
			"accounts": schema.ListAttribute{
				ElementType:         types.StringType,
				Required:            true,
				MarkdownDescription: tflist.DocAccounts,
				Validators:          []validator.List{tfvalidate.Accounts{Summary: invalidArgument, What: "machines"}},
			},
			"managed": schema.BoolAttribute{
				Optional:            true,
				MarkdownDescription: tflist.DocManaged,
			},
			"name_prefix": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: tflist.DocNamePrefix,
				Validators:          []validator.String{tflist.NotEmpty{Summary: invalidArgument, Name: "name_prefix", Example: "a prefix such as \"web-\""}},
			},
			"name_regex": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: tflist.DocNameRegex,
				Validators:          []validator.String{tflist.RegexCheck{Summary: invalidArgument}},
			},
			"labels": schema.MapAttribute{
				ElementType:         types.StringType,
				Optional:            true,
				MarkdownDescription: tflist.DocLabels,
			},
			"states": schema.SetAttribute{
				ElementType:         types.StringType,
				Optional:            true,
				MarkdownDescription: tflist.DocStates,
				Validators:          []validator.Set{tflist.StatesCheck{Summary: invalidArgument}},
			},
			"machines": schema.ListNestedAttribute{
				Computed: true,
				MarkdownDescription: "The matching machines, sorted by account, name and machine id; `[]` when none match. " +
					"Where the backend keeps names unique within an account, `m.name` keys a `for_each` over one account; " +
					"over several, key by `m.id`.",
				NestedObject: schema.NestedAttributeObject{Attributes: machineAttributes(reg)},
			},
		},
		Blocks: map[string]schema.Block{
			"timeouts": tftimeouts.DataSource(ctx, tftimeouts.Op{Default: tflist.DefaultReadTimeout,
				What: "listing the machines of all listed accounts may take, counting the retries of a backend that fails or asks to slow down"}, tftimeouts.Unreachable(adapter.DefaultUnreachable)),
		},
	}
}

func machineAttributes(reg *adapter.Registry) map[string]schema.Attribute {
	notes := reg.Notes
	computed := func(md string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: md}
	}
	return map[string]schema.Attribute{
		"id": computed("`ACCOUNT_ID/MACHINE_ID`, what a `compute_instance` import takes: the `id` of an `import` block, " +
			"or the id given to `terraform import`."),
		"machine_id": computed("The machine's own id at its backend."),
		"account": computed("The id of the account the machine lives on, as listed in `accounts`; what " +
			"`compute_instance.account` takes."),
		"name": computed("The machine's name."),
		"managed": schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the machine carries the provider's " +
			"mark: created by it, or imported and applied since. `false` for machines to import; the provider never " +
			"changes, powers or deletes them before."},
		"state": computed("The machine's state, as `compute_instance.state`: `pending`, `running`, `stopped`, `rescue`, " +
			"`deleting`, `deleted`, `error` or `unknown`. `running` only with an address."),
		"raw_state": computed("The backend's own status word, e.g. `running` or `off`."),
		"offer_id": computed("The machine's offer; what `compute_instance.offer_id` takes. Null when the backend reports none." +
			notes(adapter.FieldOfferID)),
		"image": computed("The image the machine was installed from, or its id where the image has no name (a snapshot); what " +
			"`compute_instance.image` takes. Null when the backend reports none (an image deleted since)." + notes(adapter.FieldImage)),
		adapter.FieldLocation: computed("Where the machine runs; what `compute_instance.location` takes. Null when the backend reports none." +
			notes(adapter.FieldLocation)),
		"labels":       schema.MapAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "The machine's labels, without the provider's own marks; what `compute_instance.labels` takes."},
		"ipv4_address": computed("The public IPv4 address, null when there is none."),
		"ipv6_address": computed("The public IPv6 address, null when there is none."),
		"created_at":   computed("When the backend created the machine (RFC 3339), null when it does not say."),
	}
}
