// Command terraform-provider-compute serves the compute provider to Terraform
// and OpenTofu over plugin protocol 6. Everything else lives under internal/;
// this file only parses flags and hands the provider to the plugin server.
//
// Run with -debug to start in debug mode: the provider prints a
// TF_REATTACH_PROVIDERS value to export in the shell that runs terraform
// (add -address registry.opentofu.org/seedcompute/compute for tofu).
//
// The documentation under docs/ is generated from the provider's schemas,
// templates/ and examples/ (use `make docs`, which also keeps terraform from
// being downloaded):
//
//go:generate go tool tfplugindocs generate --provider-name compute
package main

import (
	"context"
	"flag"
	"log"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// version and commit are set at build time: make build and make install set
// version from the VERSION file, a release (.goreleaser.yml) sets both with
// -ldflags "-X main.version=1.2.3 -X main.commit=abc123". Terraform shows the
// version in the provider's log when the provider is configured.
var (
	version = "dev"
	commit  = ""
)

func main() {
	var debug bool
	var address string
	flag.BoolVar(&debug, "debug", false, "start the provider in debug mode for debuggers like delve; it prints the TF_REATTACH_PROVIDERS value to use")
	// Only debug mode reads the address: it is the key of the
	// TF_REATTACH_PROVIDERS value printed, and OpenTofu looks the provider up
	// under its own registry's host.
	flag.StringVar(&address, "address", "registry.terraform.io/seedcompute/compute", "the provider address debug mode prints; registry.opentofu.org/seedcompute/compute for OpenTofu")
	flag.Parse()

	err := providerserver.Serve(context.Background(), provider.New(version, provider.WithCommit(commit)), providerserver.ServeOpts{
		Address:         address,
		Debug:           debug,
		ProtocolVersion: 6,
	})
	if err != nil {
		log.Fatal(err.Error())
	}
}
