package provider

import (
	"context"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/seedcompute/terraform-provider-compute/internal/account"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/hcloud"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/proxmox"
	"github.com/seedcompute/terraform-provider-compute/internal/adapter/robot"
	"github.com/seedcompute/terraform-provider-compute/internal/bootstrap"
	"github.com/seedcompute/terraform-provider-compute/internal/instance"
	"github.com/seedcompute/terraform-provider-compute/internal/machines"
	"github.com/seedcompute/terraform-provider-compute/internal/offers"
	"github.com/seedcompute/terraform-provider-compute/internal/poweraction"
)

// TypeName is the provider's type name, the prefix of every resource type.
const TypeName = "compute"

// Option changes how the provider is built; production uses none.
type Option func(*computeProvider)

// WithClock replaces the wall clock every wait and retry selects on. Tests
// pass one that shortens waits, so they never sleep through real back-offs.
func WithClock(c adapter.Clock) Option { return func(p *computeProvider) { p.clock = c } }

// WithRequestTimeout replaces every adapter's own bound on a single backend
// request. Tests shorten it, so a silent endpoint costs them milliseconds
// instead of the real bound's seconds.
func WithRequestTimeout(d time.Duration) Option {
	return func(p *computeProvider) { p.requestTimeout = d }
}

// WithCommit records the commit the binary was built from, for the line the
// provider logs when it is configured (release builds set it; a local build
// has none).
func WithCommit(commit string) Option { return func(p *computeProvider) { p.commit = commit } }

// WithRegistry replaces the registry of adapter kinds.
func WithRegistry(r *adapter.Registry) Option { return func(p *computeProvider) { p.registry = r } }

// DefaultRegistry holds the adapters the provider ships. Their order is the
// order of the account blocks, of the documentation that goes through each
// backend and of the messages that name them; the first, Hetzner Cloud, is
// the example account of documentation and messages (adapter.Registry), as
// the one whose smallest block is a token alone. Built with the testbackends
// tag, testBackends follow them.
func DefaultRegistry() *adapter.Registry {
	return adapter.NewRegistry(append(shipped(), testBackends...)...)
}

// shipped are the adapters of a release build, the ones make docs (never
// built with the testbackends tag) documents: tests that hold the docs to
// the registry iterate these, so a tagged build does not ask the pages for
// blocks they deliberately leave out.
func shipped() []adapter.Definition {
	return []adapter.Definition{hcloud.Definition(), proxmox.Definition(), robot.Definition()}
}

// testBackends are the adapters kept in the tests, each appended by a file
// of its own (testbackend_NAME.go, with the testbackends build tag): none
// in a release build, so neither the shipped binary nor its docs offer
// them.
var testBackends []adapter.Definition

// New returns the constructor that providerserver.Serve and the acceptance
// tests call once per provider process.
func New(version string, opts ...Option) func() provider.Provider {
	return func() provider.Provider {
		p := &computeProvider{version: version, clock: adapter.RealClock{}}
		for _, o := range opts {
			o(p)
		}
		if p.registry == nil {
			p.registry = DefaultRegistry()
		}
		return p
	}
}

type computeProvider struct {
	version        string
	commit         string
	clock          adapter.Clock
	registry       *adapter.Registry
	requestTimeout time.Duration // 0: each adapter's own
}

var (
	_ provider.Provider                   = (*computeProvider)(nil)
	_ provider.ProviderWithValidateConfig = (*computeProvider)(nil)
	_ provider.ProviderWithListResources  = (*computeProvider)(nil)
)

func (p *computeProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = TypeName
	resp.Version = p.version
}

func (p *computeProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Creates, adopts, watches and destroys machines through one contract, on every backend " +
			"it has an adapter for: " + backends(p.registry) + ". Credentials are never written in the configuration: " +
			"accounts name them by secret references (`env://NAME`, `file:///path`, `provider://NAME`), resolved on every request.",
		Attributes: map[string]schema.Attribute{
			"secrets": schema.MapAttribute{
				ElementType: types.StringType,
				Optional:    true,
				Sensitive:   true,
				MarkdownDescription: "Secret values that account settings reference as `provider://NAME`, " +
					"for secrets that come from Terraform itself (a variable, another provider's output). " +
					"Prefer `env://NAME` where the environment can hold the secret, as in Terraform Cloud " +
					"workspaces. A value that is not known until apply is resolved at apply; plan-time " +
					"catalog checks that need it are skipped.",
			},
		},
	}
}

func (p *computeProvider) ValidateConfig(ctx context.Context, req provider.ValidateConfigRequest, resp *provider.ValidateConfigResponse) {
	var secrets types.Map
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("secrets"), &secrets)...)
	if secrets.IsNull() || secrets.IsUnknown() {
		return
	}
	for name := range secrets.Elements() {
		// A name provider://NAME cannot reach is a mistake worth a word now;
		// the name is not secret, its value is and is never shown.
		if name == "" || strings.ContainsAny(name, "/ ") {
			resp.Diagnostics.AddAttributeError(path.Root("secrets").AtMapKey(name), "Unable to use secret name",
				"secrets key "+quote(name)+" cannot be named by a provider:// reference: names must be "+
					"non-empty and contain no \"/\" or space. Rename the key.")
		}
	}
}

// buildLine is the configure log line's message: "configuring the compute
// provider 0.1.0 (commit abc123) for Terraform 1.11.4", what a person reads
// first in a log attached to a bug report; the fields repeat it for machines.
func buildLine(version, commit, terraformVersion string) string {
	line := "configuring the compute provider " + version
	if commit != "" {
		line += " (commit " + commit + ")"
	}
	if terraformVersion != "" {
		line += " for Terraform " + terraformVersion
	}
	return line
}

func (p *computeProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var secrets types.Map
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("secrets"), &secrets)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// The first line of every provider process's log says which build runs,
	// so a log attached to a bug report names the release it came from.
	tflog.Info(ctx, buildLine(p.version, p.commit, req.TerraformVersion), map[string]any{
		"version":           p.version,
		"commit":            p.commit,
		"terraform_version": req.TerraformVersion,
	})
	ua := "terraform-provider-compute/" + p.version
	if req.TerraformVersion != "" {
		ua += " terraform/" + req.TerraformVersion
	}
	resolver := newResolver(secrets)
	seen := &secretValues{}
	for _, v := range resolver.inner.Provider {
		seen.add(v)
	}
	accounts := adapter.NewAccounts(p.registry, adapter.Env{
		Secrets:        noting{inner: resolver, seen: seen},
		Clock:          p.clock,
		UserAgent:      ua,
		RequestTimeout: p.requestTimeout,
		Log:            tflogLogger{secrets: seen},
	})
	resp.ResourceData = accounts
	resp.DataSourceData = accounts
	resp.ActionData = accounts
	resp.ListResourceData = accounts
}

func (p *computeProvider) Resources(context.Context) []func() resource.Resource {
	reg := p.registry
	return []func() resource.Resource{
		func() resource.Resource { return account.New(reg) },
		func() resource.Resource { return instance.New(reg) },
		func() resource.Resource { return bootstrap.New(reg) },
	}
}

func (p *computeProvider) DataSources(context.Context) []func() datasource.DataSource {
	reg := p.registry
	return []func() datasource.DataSource{
		func() datasource.DataSource { return offers.New(reg) },
		func() datasource.DataSource { return machines.New(reg) },
	}
}

var _ provider.ProviderWithActions = (*computeProvider)(nil)

// Actions are the power actions of compute_instance (Terraform 1.14 and
// later run them; older releases and OpenTofu ignore them).
func (p *computeProvider) Actions(context.Context) []func() action.Action {
	return poweraction.All(p.registry)
}

// ListResources are the list resources of `terraform query` (Terraform
// 1.14 and later), under the type names of the resources they find.
func (p *computeProvider) ListResources(context.Context) []func() list.ListResource {
	reg := p.registry
	return []func() list.ListResource{
		func() list.ListResource { return instance.NewList(reg) },
		func() list.ListResource { return bootstrap.NewList(reg) },
	}
}

func quote(s string) string { return "\"" + s + "\"" }

// backends names what each registered adapter reaches, from its
// definition, so the provider's description follows the registry.
func backends(r *adapter.Registry) string {
	var out []string
	for _, d := range r.Definitions() {
		out = append(out, strings.TrimSuffix(d.Description, "."))
	}
	return strings.Join(out, "; ")
}
