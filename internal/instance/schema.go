package instance

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/mapdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tftimeouts"
)

// resourceSchema is the schema; what a value is on each backend comes from
// the registry's definitions (Definition.Notes).
func resourceSchema(ctx context.Context, reg *adapter.Registry) schema.Schema {
	notes := reg.Notes
	return schema.Schema{
		// Version 1: the id is the machine's own id, the account's id JSON.
		Version: 1,
		MarkdownDescription: "One machine on an account. `name` and `labels` are checked against the rules of the " +
			"account's backend, and `offer_id`, `image` and `location` against the account's catalog, at plan time. Create is idempotent: an apply that was interrupted after the " +
			"backend accepted the machine finds it again when it is simply run again. Import with " +
			"`ACCOUNT_ID/MACHINE_ID` (or an `import` block, by that id or, on Terraform 1.12 and later and OpenTofu 1.12, by " +
			"`identity = { account, id }`; on Terraform 1.14 and later `terraform query` over the list resource of the same name " +
			"finds every machine to import); a machine the provider did not create is marked as " +
			"managed by the first apply after its import, and is never changed, powered or deleted before. " +
			"Default timeouts: create, update and delete 10m, read 5m.",
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "The machine's own id at its backend (a server id, a server number, a VMID), " +
					"as the official providers' ids are. The account it lives on is `account`, which with the id is enough to read, delete or " +
					"import the machine without any other resource. Import ids are `ACCOUNT_ID/MACHINE_ID`. States written before version 1 " +
					"of this schema, whose id was `ACCOUNT_ID/MACHINE_ID`, are upgraded on the next plan.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"account": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The `id` of the `compute_provider_account` the machine lives on. Changing it (another name, " +
					"secret reference, setting, default location, or the endpoint written another way) never replaces the machine " +
					"and sends it nothing: the instance is re-pointed at the new account in place once a read of the machine " +
					"through the new account finds it, carrying this state's claim. That read is made at plan when the new " +
					"account is known and answers, otherwise at apply before anything is written; endpoints are compared in " +
					"canonical form (scheme and host in lower case, no default port, no trailing slash). An account that does not " +
					"reach the machine (another project, another cluster, another backend) fails the plan or apply on `account`, " +
					"with the way out: `terraform taint` to make a new machine there (`-replace` is refused by the same check), or " +
					"`terraform state rm` (or a `removed {}` block) to let the old one go. A plan that replaces or destroys a machine whose account cancels " +
					"rentals on delete" + adapter.CancelSettings(reg) + " warns, naming the machine, when the provider can see what forces the " +
					"replacement (offer, image, location, user data); one forced by `terraform taint` or `-replace` is planned by Terraform " +
					"as a new machine, so no plan can warn of it: set the cancel setting to false first.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			adapter.FieldName: schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The machine's name, checked at plan time against the backend's rule." + notes(adapter.FieldName) +
					" Renaming is done in place. The name, with the account's scope, keys the idempotent create.",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			adapter.FieldOfferID: schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The offer to create: an `id` of the `compute_offers` data source." + notes(adapter.FieldOfferID) +
					" Changing it replaces the machine, and so does an imported machine whose backend reports another offer. An imported " +
					"machine whose backend reported none (a Proxmox VE VM whose cores and memory no flavor of the account had) takes the " +
					"configured offer in place when, read at plan through the configured account, it is of that offer; otherwise it is replaced. " +
					"A value not known until apply (a `compute_offers` read that Terraform defers because its account has changes pending) " +
					"does not replace the machine by itself: the apply refuses a value that then differs, and the next plan replaces it.",
				PlanModifiers: []planmodifier.String{replaceWhenKnown},
				Validators:    []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			adapter.FieldImage: schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The image to install." + notes(adapter.FieldImage) + " Changing it replaces the machine. The image a " +
					"machine was created from is not compared again after creation, since backends report images under " +
					"names that differ from what was asked for. A machine imported from a backend that does not report its " +
					"image has none in state: the configured image is then taken as its own, without replacement.",
				PlanModifiers: []planmodifier.String{replaceWhenKnown},
				Validators:    []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			adapter.FieldLocation: schema.StringAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "Where the machine runs." + notes(adapter.FieldLocation) + " Defaults to the account's location when the " +
					"machine is created. Changing it replaces the machine. The account's default location is a default for new " +
					"machines only: changing it re-points existing ones in place, which stay where they are and keep the location " +
					"the backend reports for them.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown(), stringplanmodifier.RequiresReplace()},
				Validators:    []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			adapter.FieldUserData: schema.StringAttribute{
				Optional:  true,
				Sensitive: true,
				WriteOnly: true,
				MarkdownDescription: "Cloud-init user data, given to the machine at creation. Write-only: the provider keeps it " +
					"out of the plan and the state (Terraform 1.11 or later); `user_data_sha256` records its digest. Terraform " +
					"itself still saves what it is given in a saved plan file: a literal value in the configuration's copy, a " +
					"`-var` or `TF_VAR_` value in its variables, sensitive or not. Pass user data that holds a secret with " +
					"`file()`, or through a variable marked `ephemeral = true`." + notes(adapter.FieldUserData),
			},
			"user_data_sha256": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "Hex SHA-256 of the configured `user_data`, null without user data. A change replaces " +
					"the machine, since user data takes effect only at creation. Null after an import, where it is " +
					"unknown; the first apply after the import records the configured digest without replacing.",
			},
			adapter.FieldLabels: schema.MapAttribute{
				ElementType: types.StringType,
				Optional:    true,
				Computed:    true,
				Default:     mapdefault.StaticValue(types.MapValueMust(types.StringType, nil)),
				MarkdownDescription: "Labels of the machine. Defaults to none, so labels added outside Terraform are " +
					"removed by the next apply. Keys and values are checked at plan time against the backend's rules." + notes(adapter.FieldLabels) +
					" The provider's own marks are kept beside them and never shown.",
			},
			adapter.FieldPower: schema.StringAttribute{
				Optional: true,
				Computed: true,
				Default:  stringdefault.StaticString("on"),
				MarkdownDescription: "`on` or `off`. Switched in place; a machine powered off outside Terraform shows as a change back to `on`. Default `on`. " +
					"`off` shuts the machine down gracefully: the guest is asked to shut down (ACPI) and, if the machine is not off within " +
					"`shutdown_timeout`, its power is cut, with a warning.",
				Validators: []validator.String{stringvalidator.OneOf("on", "off")},
			},
			"shutdown_timeout": schema.StringAttribute{
				Optional: true,
				Computed: true,
				Default:  stringdefault.StaticString(tftimeouts.Short(defaultShutdownTimeout)),
				MarkdownDescription: "How long a graceful shutdown or reboot may take before the provider falls back to the hard action, " +
					"like `timeout_shutdown_vm` of bpg/proxmox or `force` of AWS: `power = \"off\"` asks the guest to shut down and cuts the " +
					"power if the machine is not off within this time of the request reaching it; a restart (`triggers_restart`) asks the guest to reboot and resets " +
					"the machine if the reboot is not done within it. Each fallback is reported as a warning. A duration of zero or more " +
					"such as `\"30s\"` or `\"5m\"`, checked at plan; `\"0s\"` skips the graceful step and acts hard at once, for guests " +
					"that ignore ACPI. Default `" + tftimeouts.Short(defaultShutdownTimeout) + "`. On a backend without a graceful " +
					"shutdown the power is cut at once. The wait counts toward `timeouts.update` (`timeouts.create` for a machine created " +
					"off), so it must be shorter. Some backends report only that the request reached the guest: a reboot the guest ignores " +
					"then goes unnoticed, and `\"0s\"` is the way to be sure of the restart. Not read from the backend: an import " +
					"records the default.",
				Validators: []validator.String{tftimeouts.Bound(defaultShutdownTimeout)},
			},
			"triggers_restart": schema.MapAttribute{
				ElementType: types.StringType,
				Optional:    true,
				MarkdownDescription: "Arbitrary values that restart the machine in place, without replacing it, when any of them " +
					"changes, as `triggers_replace` of `terraform_data` replaces: for example `{ config = sha256(local.config) }`. The " +
					"restart is graceful first, a reboot request bounded by `shutdown_timeout`, then a hard reset. Nothing is restarted " +
					"when the values are set for the first time (or after an import) or removed, nor when the machine is not running or " +
					"the same apply switches `power`: the new values are recorded all the same. Refused at plan on a backend that cannot " +
					"restart machines. It is not read from the backend, so an import leaves it empty.",
			},
			"available_actions": schema.ListAttribute{
				ElementType: types.StringType,
				Computed:    true,
				MarkdownDescription: "The power actions the provider can take on the machine in the state it is in, as its backend " +
					"reports them, read on every refresh: " + actionsDoc() + ". Empty while the backend is busy with the machine " +
					"(it is being created, switched or deleted) and for an imported machine until the first apply marks it.",
			},
			"state": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "The machine's state: `pending`, `running`, `stopped`, `rescue`, `deleting`, `deleted`, `error` " +
					"or `unknown`. `running` only with an address.",
			},
			"raw_state": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The backend's own status word, e.g. `running` or `off`.",
			},
			"ipv4_address": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The public IPv4 address, null when there is none.",
			},
			"ipv6_address": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The public IPv6 address, null when there is none.",
			},
			"created_at": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "When the backend created the machine (RFC 3339).",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"claim": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "The token that says this state holds the machine: written onto the machine with it and kept " +
					"here. The first refresh after the create (or after the first apply after an import) confirms it, and from then on no other state's create can adopt the machine; " +
					"until then (for an hour at most) the rerun of an interrupted apply adopts it and writes its own. A state whose claim is " +
					"no longer on the machine has lost it to another state and never deletes, powers or changes it (see the interrupted " +
					"applies guide). Not a secret.",
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"managed": schema.BoolAttribute{
				Computed: true,
				MarkdownDescription: "Whether the machine carries the provider's mark. False right after importing a machine " +
					"the provider did not create; the next apply writes the mark.",
			},
		},
		Blocks: map[string]schema.Block{
			"timeouts": tftimeouts.Resource(ctx,
				tftimeouts.Op{Name: "create", Default: defaultCreateTimeout, What: "the create may take, counting its retries and the wait for the machine"},
				tftimeouts.Op{Name: "read", Default: defaultReadTimeout, What: "a refresh (and the read after an import) may take, counting its retries"},
				tftimeouts.Op{Name: "update", Default: defaultUpdateTimeout, What: "an update may take, counting its retries and waits"},
				tftimeouts.Op{Name: "delete", Default: defaultDeleteTimeout, What: "the delete may take, counting its retries and the wait until the machine is gone"},
				tftimeouts.Unreachable(adapter.DefaultUnreachable),
			),
		},
	}
}

// actionsDoc lists the values of available_actions with what each does.
func actionsDoc() string {
	var parts []string
	for _, a := range adapter.PowerActions {
		parts = append(parts, "`"+string(a)+"` ("+a.Description()+")")
	}
	return strings.Join(parts, ", ")
}

// replaceWhenKnown replaces the machine when offer_id or image changes to a
// value known at plan. An unknown value is no change yet: Terraform defers a
// compute_offers read whose account has any change pending (a new name, new
// timeouts), and replacing every machine on such an edit would destroy them
// for nothing. Update refuses a value that turns out to differ. A value the
// state holds as null is left to ModifyPlan (unreported).
var replaceWhenKnown = stringplanmodifier.RequiresReplaceIf(
	func(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
		resp.RequiresReplace = !req.PlanValue.IsUnknown() && !unreported(req.Path, req.StateValue)
	},
	"Changing the value to one known at plan replaces the machine.",
	"Changing the value to one known at plan replaces the machine.",
)
