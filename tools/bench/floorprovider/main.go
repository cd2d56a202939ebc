// Command floorprovider serves, in debug mode, a provider with the compute
// provider's own provider and resource schemas whose refresh asks no API:
// every Read keeps the state it is given, and neither the provider nor its
// resources check anything at plan (no ModifyPlan, no config validators).
// A plan through it costs what Terraform and the plugin framework spend on
// resources of these schemas and nothing more: the floor of a plan, as a
// no-op apply of terraform_data is the floor of an apply. tools/bench runs
// it against the state the real provider applied and prints its plan time
// beside the real one's.
//
// It serves only plans: a create, update or delete is refused.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	computeprovider "github.com/seedcompute/terraform-provider-compute/internal/provider"
)

func main() {
	var address string
	// -debug is accepted as the compute provider takes it, so that one
	// command line starts either; this one is always in debug mode.
	flag.Bool("debug", true, "ignored: the floor provider always serves in debug mode")
	flag.StringVar(&address, "address", "registry.terraform.io/seedcompute/compute", "the provider address printed for TF_REATTACH_PROVIDERS")
	flag.Parse()
	err := providerserver.Serve(context.Background(), func() provider.Provider {
		return floor{computeprovider.New("floor")()}
	}, providerserver.ServeOpts{Address: address, Debug: true, ProtocolVersion: 6})
	if err != nil {
		log.Fatal(err)
	}
}

// floor is the compute provider with its resources' reads made free. It
// embeds the provider interface alone, so the framework sees no data
// source, list resource or action beside the resources.
type floor struct{ provider.Provider }

func (f floor) Resources(ctx context.Context) []func() resource.Resource {
	var out []func() resource.Resource
	for _, inner := range f.Provider.Resources(ctx) {
		out = append(out, func() resource.Resource {
			r := inner()
			if i, ok := r.(resource.ResourceWithIdentity); ok {
				return freeReadIdentity{freeRead{r}, i}
			}
			return freeRead{r}
		})
	}
	return out
}

func (floor) DataSources(context.Context) []func() datasource.DataSource { return nil }

// freeRead has inner's metadata and schema; its Read leaves the state as
// Terraform sent it.
type freeRead struct{ inner resource.Resource }

func (r freeRead) Metadata(ctx context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	r.inner.Metadata(ctx, req, resp)
}

func (r freeRead) Schema(ctx context.Context, req resource.SchemaRequest, resp *resource.SchemaResponse) {
	r.inner.Schema(ctx, req, resp)
}

func (freeRead) Read(context.Context, resource.ReadRequest, *resource.ReadResponse) {}

// freeReadIdentity is freeRead of a resource with an identity, which every
// read must return: Terraform before 1.12 sends none, so it is made, as the
// compute provider's reads make it, from the state's attributes of the
// same names (account and id).
type freeReadIdentity struct {
	freeRead
	identity resource.ResourceWithIdentity
}

func (r freeReadIdentity) IdentitySchema(ctx context.Context, req resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	r.identity.IdentitySchema(ctx, req, resp)
}

func (freeReadIdentity) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	if resp.Identity == nil {
		return
	}
	for name := range resp.Identity.Schema.GetAttributes() {
		var v types.String
		resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root(name), &v)...)
		resp.Diagnostics.Append(resp.Identity.SetAttribute(ctx, path.Root(name), v)...)
	}
}

func (freeRead) Create(_ context.Context, _ resource.CreateRequest, resp *resource.CreateResponse) {
	resp.Diagnostics.AddError("Unable to create", "The floor provider only refreshes: apply with the compute provider.")
}

func (freeRead) Update(_ context.Context, _ resource.UpdateRequest, resp *resource.UpdateResponse) {
	resp.Diagnostics.AddError("Unable to update", "The floor provider only refreshes: apply with the compute provider.")
}

func (freeRead) Delete(_ context.Context, _ resource.DeleteRequest, resp *resource.DeleteResponse) {
	resp.Diagnostics.AddError("Unable to delete", "The floor provider only refreshes: apply with the compute provider.")
}
