package account

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/tftimeouts"
)

var healthTypes = map[string]attr.Type{
	"reachable":  types.BoolType,
	"reason":     types.StringType,
	"checked_at": types.StringType,
}

func (r *Resource) schema(ctx context.Context) schema.Schema {
	attrs := map[string]schema.Attribute{
		"id": schema.StringAttribute{
			Computed: true,
			MarkdownDescription: "The account's locator: a JSON object of the adapter kind, the account's `name` and its settings, " +
				"defaults filled in, secrets only as references" + r.exampleID() + ". Known at plan time unless a setting or the name is " +
				"only known at apply. `compute_instance.account` and `compute_bootstrap_host.account` take it, and import ids start with it " +
				"(`ACCOUNT_ID/MACHINE_ID`). JSON, so that a plan shows it as `jsonencode({...})`, one line per member, the name always " +
				"among them: a reviewer reads which account a machine is on and which setting changed. Ids of the older form " +
				"`KIND:key=value&...` are still accepted in import ids.",
		},
		"name": schema.StringAttribute{
			Required:   true,
			Validators: []validator.String{notEmpty{wayOut: `give the account a name, e.g. name = "prod-cloud"`}},
			MarkdownDescription: "A name for the account, shown in diagnostics and in plans; not empty. It is part of the `id` " +
				"for reading only: renaming an account re-points its machines in place and changes nothing remote.",
		},
		"adapter": schema.StringAttribute{
			Computed:            true,
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			MarkdownDescription: "The adapter kind of the configured block (`" + strings.Join(r.registry.Kinds(), "`, `") + "`).",
		},
		"health": schema.SingleNestedAttribute{
			Computed: true,
			MarkdownDescription: "The last health check: one cheap authenticated read, run on create, on update and on " +
				"every refresh; create and update also prove that the credentials may create machines, without changing anything. " +
				"A refresh never fails because the backend is down; it records why here.",
			Attributes: map[string]schema.Attribute{
				"reachable": schema.BoolAttribute{Computed: true, MarkdownDescription: "Whether the backend answered the check's read. " +
					"`true` with a `reason` means the backend was reached and the credentials may not create (a read-only token)."},
				"reason": schema.StringAttribute{Computed: true, MarkdownDescription: "Why the check failed: the backend's failure, " +
					"refused credentials, or credentials that may not create; empty when it succeeded."},
				"checked_at": schema.StringAttribute{Computed: true, MarkdownDescription: "When a check first found the current `reachable` and `reason` (RFC 3339). Later checks that find the same health leave it unchanged, so a refresh of a healthy account shows no change."},
			},
		},
	}
	var blocks []string
	for _, def := range r.registry.Definitions() {
		name := def.BlockName()
		blocks = append(blocks, "`"+name+"`")
		attrs[name] = schema.SingleNestedAttribute{
			Optional:            true,
			MarkdownDescription: fmt.Sprintf("%s (adapter `%s`). Exactly one adapter block is set.", strings.TrimSuffix(def.BlockDoc(), "."), def.Kind),
			Attributes:          settingAttributes(def),
		}
	}
	return schema.Schema{
		// Version 1: the id is the JSON locator with the account's name.
		Version: 1,
		MarkdownDescription: "An account on a backend: which adapter, its settings, and where its secrets live " +
			"(secret references, never the secrets). Creating it resolves the secrets and runs one health " +
			"check; nothing remote is created or destroyed. Set exactly one of " + strings.Join(blocks, ", ") + ".\n\n" +
			"Import takes the account's `id`; `name` is not part of the id, so write it in the configuration " +
			"(the first apply records it; nothing remote changes).",
		Attributes: attrs,
		Blocks: map[string]schema.Block{
			"timeouts": tftimeouts.Resource(ctx,
				tftimeouts.Op{Name: "create", Default: defaultTimeout, What: "the create's health check may take, counting its retries"},
				tftimeouts.Op{Name: "read", Default: defaultTimeout, What: "a refresh's health check may take, counting its retries, before health records the outage"},
				tftimeouts.Op{Name: "update", Default: defaultTimeout, What: "an update's health check may take, counting its retries"},
				tftimeouts.Unreachable(adapter.DefaultUnreachable),
			),
		},
	}
}

// exampleID is an example of an account id of the registry's example kind
// (Registry.Example), as ", e.g. `KIND:...`": its defaults, and its secrets
// as env:// references.
func (r *Resource) exampleID() string {
	def, ok := r.registry.Example()
	if !ok {
		return ""
	}
	l := adapter.Locator{Kind: def.Kind, Name: "prod", Settings: map[string]string{}}
	for _, s := range def.Settings {
		switch {
		case s.IsSecret():
			l.Settings[s.Name] = exampleRef(def, s)
		case s.Default != "":
			l.Settings[s.Name] = s.Default
		}
	}
	return ", e.g. `" + l.String() + "`"
}

// exampleRef is the reference examples give a secret setting: its
// default (env://Env), else env://KIND_NAME.
func exampleRef(def adapter.Definition, s adapter.Setting) string {
	if ref := s.EnvRef(); ref != "" {
		return ref
	}
	return "env://" + strings.ToUpper(def.Kind+"_"+s.Name)
}

// settingAttributes builds a block's attributes from an adapter's manifest.
func settingAttributes(def adapter.Definition) map[string]schema.Attribute {
	out := map[string]schema.Attribute{}
	for _, s := range def.Settings {
		desc := capitalize(strings.TrimSuffix(s.Description, ".")) + "."
		if s.IsSecret() {
			desc += " Takes `env://NAME`, `file:///absolute/path` or `provider://NAME`; a value that is not a reference " +
				"is refused at plan time without being shown."
		}
		var a schema.StringAttribute
		wayOut := "leave it out, or set a value"
		switch {
		case s.Defaulted():
			a.Optional, a.Computed = true, true
			desc += defaultDoc(s)
			a.PlanModifiers = []planmodifier.String{stringplanmodifier.UseStateForUnknown()}
			wayOut = "leave it out to use the default (" + defaultWords(s) + "), or set a value"
		case s.Required:
			a.Required = true
			wayOut = "set a value"
		default:
			a.Optional = true
		}
		if s.IsSecret() {
			wayOut = "set a secret reference such as env://NAME"
			if s.Env != "" {
				wayOut = "set a secret reference such as env://NAME, or leave it out to read the environment variable " + s.Env
			}
		}
		a.Validators = []validator.String{notEmpty{wayOut: wayOut}}
		a.MarkdownDescription = desc
		out[s.Name] = a
	}
	return out
}

func settingTypes(def adapter.Definition) map[string]attr.Type {
	out := map[string]attr.Type{}
	for _, s := range def.Settings {
		out[s.Name] = types.StringType
	}
	return out
}

func healthValue(reachable bool, reason, checkedAt string) types.Object {
	return types.ObjectValueMust(healthTypes, map[string]attr.Value{
		"reachable":  types.BoolValue(reachable),
		"reason":     types.StringValue(reason),
		"checked_at": types.StringValue(checkedAt),
	})
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// notEmpty refuses "", which Terraform would otherwise send as a value: the
// stock validator's message says the length is wrong, not what to write.
type notEmpty struct{ wayOut string }

func (notEmpty) Description(context.Context) string { return "not empty" }

func (v notEmpty) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v notEmpty) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || req.ConfigValue.ValueString() != "" {
		return
	}
	resp.Diagnostics.AddAttributeError(req.Path, "Unable to use empty account setting", fmt.Sprintf("%s is empty; %s.", req.Path, v.wayOut))
}
