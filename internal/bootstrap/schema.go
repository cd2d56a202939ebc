package bootstrap

import (
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/listplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/objectplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
)

// repoints is said of account: an account change is no reinstall.
const repoints = " Changing it (another name, secret reference, setting, default location, " +
	"or the endpoint written another way) never replaces the host nor touches its machine: the host is re-pointed at the new account " +
	"in place once a read of the machine through the new account finds it, carrying this state's claim. That read is made at plan " +
	"when the new account is known and answers, otherwise at apply before anything is written; endpoints are compared in canonical " +
	"form (scheme and host in lower case, no default port, no trailing slash). An account that does not reach the machine (another " +
	"project, another user) fails the plan or apply on `account`, with the way out: `terraform taint` to make a new " +
	"host there (`-replace` is refused by the same check), or `terraform state rm` (or a `removed {}` block) to let the old one go. " +
	"A replacement that `terraform taint` or `-replace` forces is planned by Terraform as a new host, so no plan can warn that it " +
	"cancels a rental: set the account's cancel setting to false first."

// replaces is said of every attribute whose change reinstalls the host.
const replaces = " Changing it replaces the host: it is released and claimed again, and installed anew (see below for what that means on an account that cancels rentals). Not compared after an import, whose first apply records the configured value."

func resourceSchema(reg *adapter.Registry) schema.Schema {
	keep := []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
	return schema.Schema{
		// Version 1: the id is the machine's own id, the account's id JSON.
		Version: 1,
		MarkdownDescription: "A dedicated machine turned into a host: claimed (by `machine_id`, a free machine of `offer_id`, or one " +
			"ordered when the account allows it), booted into its rescue system, installed unattended with its files delivered over " +
			"SSH, rebooted, and ready once its first-boot unit (or `ready_command`) succeeded. Each phase is kept in state, so an " +
			"interrupted or failed apply resumes where it stopped and never installs twice. Only accounts whose adapter can " +
			"bootstrap are accepted." + bootstrapKinds(reg),
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed: true,
				MarkdownDescription: "The machine's own id at its backend (a server number), as the official providers' ids are. " +
					"The account it lives on is `account`, which with the id is enough to read, release or import the host without any other " +
					"resource. Import ids are `ACCOUNT_ID/MACHINE_ID`. States written before version 1 of this schema, whose id was " +
					"`ACCOUNT_ID/MACHINE_ID`, are upgraded on the next plan.",
				PlanModifiers: keep,
			},
			"account": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "The `id` of the `compute_provider_account` the machine is rented on; its adapter must be able to bootstrap." + repoints,
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"machine_id": schema.StringAttribute{
				Optional: true,
				Computed: true,
				MarkdownDescription: "The machine to claim, as the backend numbers it. Exactly one of `machine_id` and `offer_id`. Computed " +
					"when the machine was taken from an offer." + replaces,
				PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown(), replaceUnlessImported},
			},
			adapter.FieldOfferID: schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "The offer a free machine is taken from (or ordered, when the account allows orders and its price " +
					"is within `max_monthly_price`): an `id` of `compute_offers`. Exactly one of `machine_id` and `offer_id`." + replaces,
				PlanModifiers: []planmodifier.String{replaceUnlessImported},
			},
			adapter.FieldLocation: schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Where a machine taken from `offer_id` must be; the account's location when unset. Read only when " +
					"the machine is claimed, so a change is recorded in place.",
			},
			"max_monthly_price": schema.Float64Attribute{
				Optional: true,
				MarkdownDescription: "The most a machine ordered for this host may cost per month (the offer's `price_per_month`); " +
					"unset or 0 never orders. Read only when the machine is claimed, so a change is recorded in place.",
			},
			"hostname": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The installed system's host name, a lower-case RFC 1123 name. It is also the claim's name: with " +
					"the account's scope it keys the claim, so an interrupted apply finds its machine again." + replaces,
				PlanModifiers: []planmodifier.String{replaceUnlessImported},
			},
			adapter.FieldImage: schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "The operating system image the installer writes, as the backend names it." + imageNotes(reg) + replaces,
				PlanModifiers:       []planmodifier.String{replaceUnlessImported},
			},
			"disks": schema.StringAttribute{
				Optional: true,
				Computed: true,
				Default:  stringdefault.StaticString(string(adapter.DisksAuto)),
				MarkdownDescription: "The disk layout: `auto` (software RAID 1 over two or more disks of one kind, else one disk), " +
					"`raid1` or `single` (the first disk only). Default `auto`." + replaces,
				PlanModifiers: []planmodifier.String{replaceUnlessImported},
				Validators:    []validator.String{stringvalidator.OneOf(string(adapter.DisksAuto), string(adapter.DisksRAID1), string(adapter.DisksSingle))},
			},
			"files":         filesAttribute(),
			"first_boot":    firstBootAttribute(),
			"ready_command": readyCommandAttribute(),
			"product_uuid":  computed("The machine's SMBIOS product UUID, read in rescue: its identity across reinstalls and renames.", nil),
			"ipv4":          computed("The machine's public IPv4 address.", nil),
			"ipv6":          computed("The machine's public IPv6 network or address, as its backend reports it.", nil),
			"phase": computed("How far the bootstrap got: `claiming`, `rescue`, `identifying`, `installing`, `rebooting`, `ready`, "+
				"or `failed` (see `failed_phase` and `reason`). An imported host is `ready`: it is taken as it is.", nil),
			"failed_phase": computed("The phase that failed, when `phase` is `failed`.", nil),
			"reason":       computed("Why the phase failed, when `phase` is `failed`. Never holds a secret.", nil),
			"known_hosts": computed("The installed system's host key as a known_hosts line, `<ipv4> <type> <key>`, learned over the "+
				"pinned rescue session before the first reboot: give it to `ssh -o UserKnownHostsFile=…` so nothing trusts on first use.", keep),
			"rescue_host_key": computed("The rescue system's host key as the backend announced it, `TYPE FINGERPRINT`: the pin every rescue session was checked against.", keep),
			"install_fingerprint": computed("A digest of what was installed (image, disks, hostname, file paths, modes and versions, first "+
				"boot): a machine that carries it is never installed again. Holds no content.", keep),
			"ready": schema.BoolAttribute{
				Computed: true,
				MarkdownDescription: "Whether the host is ready now: `phase` is `ready` and the backend reports the machine running, " +
					"read on every refresh. It reports the install, not what the machine runs: a refresh asks the backend, never the " +
					"machine over SSH, so a host booted into its rescue system (`compute_instance_rescue`) still reads `true`, and its " +
					"next reboot starts the installed system again.",
			},
			"claim": computed("The token that says this state holds the machine, written onto it with the claim and kept here "+
				"(see `compute_instance`'s `claim`). Not a secret.", keep),
		},
		Blocks: map[string]schema.Block{"timeouts": timeoutsBlock()},
	}
}

func computed(doc string, mods []planmodifier.String) schema.StringAttribute {
	return schema.StringAttribute{Computed: true, MarkdownDescription: doc, PlanModifiers: mods}
}

func filesAttribute() schema.ListNestedAttribute {
	return schema.ListNestedAttribute{
		Optional: true,
		MarkdownDescription: "Files placed onto the installed system before its first boot, each with exactly one of `secret` and " +
			"`content_wo`. Contents travel over SSH stdin into `umask 077` files and never enter state, plan or logs. A change of " +
			"the list (a path, a mode, a secret reference, a `content_wo_version`) replaces the host, since files are placed by the " +
			"installer: the new host installs again with the new files. A new value behind the same secret reference is not seen; " +
			"replace the host (`terraform apply -replace=…`) to deliver it." + " Not compared after an import.",
		PlanModifiers: []planmodifier.List{listplanmodifier.RequiresReplaceIf(replaceListIfNotImported, replaceDoc, replaceDoc)},
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"path": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "Absolute path on the installed system, of letters, digits and `. _ / @ : = + , -`.",
			},
			"mode": schema.StringAttribute{
				Optional:            true,
				Computed:            true,
				Default:             stringdefault.StaticString("0600"),
				MarkdownDescription: "Octal mode, default `0600`.",
			},
			"secret": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "A secret reference (`env://NAME`, `file:///path`, `provider://NAME`) whose value is the " +
					"file's content, resolved by the provider when the file is delivered. The reference is shown; its value never is.",
			},
			"content_wo": schema.StringAttribute{
				Optional:  true,
				Sensitive: true,
				WriteOnly: true,
				MarkdownDescription: "The file's content, write-only (Terraform 1.11 or later): used while the host is installed and " +
					"never stored. Set `content_wo_version` and change it with the content, since the provider cannot see a new " +
					"content by itself. Pass a secret with `file()` or an ephemeral variable, not a literal, which a saved plan keeps.",
			},
			"content_wo_version": schema.Int64Attribute{
				Optional:            true,
				MarkdownDescription: "A number that changes with `content_wo`; a change replaces the host, which installs the new content.",
			},
		}},
	}
}

func firstBootAttribute() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		Optional: true,
		MarkdownDescription: "A program the installed system runs once on its first boot, as a oneshot systemd unit that is safe to " +
			"run again: the binary at `url` is fetched by the installer, checked against `sha256` and installed at `command[0]`. " +
			"Without `ready_command`, the host is ready when this unit succeeded." + replaces,
		PlanModifiers: []planmodifier.Object{objectplanmodifier.RequiresReplaceIf(replaceObjectIfNotImported, replaceDoc, replaceDoc)},
		Attributes: map[string]schema.Attribute{
			"url":    schema.StringAttribute{Required: true, MarkdownDescription: "Where the binary is fetched, https only."},
			"sha256": schema.StringAttribute{Required: true, MarkdownDescription: "The binary's SHA-256, 64 lower-case hex digits."},
			"command": schema.ListAttribute{
				ElementType: types.StringType,
				Required:    true,
				MarkdownDescription: "The unit's command line, one word per element; `command[0]` is the absolute path the binary is " +
					"installed at. Words hold no white space, quotes, backslash, `$`, `%` or `;`.",
			},
		},
	}
}

func readyCommandAttribute() schema.ListAttribute {
	return schema.ListAttribute{
		ElementType: types.StringType,
		Optional:    true,
		MarkdownDescription: "A command (one word per element, the same characters as `first_boot.command`) that must exit 0 on " +
			"the installed system for the host to be ready, instead of the first-boot unit's success. Changed in place: it is " +
			"used by the next bootstrap that reaches the ready phase.",
	}
}

// imageNotes says what an image is on each backend that can bootstrap;
// the others' images are not this resource's.
func imageNotes(reg *adapter.Registry) string {
	var out string
	for _, d := range reg.Definitions() {
		if n := d.Notes[adapter.FieldImage]; n != "" && d.Capabilities.Has(adapter.CapBootstrap) {
			out += " On `" + d.BlockName() + "` accounts: " + strings.TrimSuffix(n, ".") + "."
		}
	}
	return out
}
