// Command terraform-provider-compute serves the compute provider to Terraform
// and OpenTofu over plugin protocol 6. Everything else lives under internal/;
// this file only parses flags and hands the provider to the plugin server.
//
// Run with -version to print the build and exit:
//
//	$ terraform-provider-compute -version
//	terraform-provider-compute 0.1.0 (commit 0ab340a…)
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
	"flag"
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"

	"github.com/seedcompute/terraform-provider-compute/internal/provider"
)

// build is set at build time to the version, and for a release the commit
// after a "+" as semantic versioning's build metadata: make build and make
// install set it from the VERSION file (-X main.build=0.1.0), a release
// (.goreleaser.yml) with -X main.build=0.1.0+<commit>. One string and not two
// so that scripts/release-check.sh can find "0.1.0+<commit>" in a binary it
// cannot run (another platform's), which no dependency's version can match
// by chance as "0.1.0" alone can. Terraform shows the version in the
// provider's log when the provider is configured.
var build = "dev"

// programName is how -version names the program.
const programName = "terraform-provider-compute"

// versionLine is what -version prints: "terraform-provider-compute 0.1.0
// (commit abc123)", without the parenthesis when no commit was set.
func versionLine(version, commit string) string {
	if commit == "" {
		return programName + " " + version
	}
	return fmt.Sprintf("%s %s (commit %s)", programName, version, commit)
}

func main() {
	var debug, showVersion bool
	var address string
	flag.BoolVar(&showVersion, "version", false, "print the version and commit the provider was built from, and exit")
	flag.BoolVar(&debug, "debug", false, "start the provider in debug mode for debuggers like delve; it prints the TF_REATTACH_PROVIDERS value to use")
	// The address is the tf_provider_addr field of every log line the
	// provider writes, in either mode; in debug mode it is also the key of
	// the TF_REATTACH_PROVIDERS value printed, and OpenTofu looks the
	// provider up under its own registry's host.
	flag.StringVar(&address, "address", "registry.terraform.io/seedcompute/compute", "the provider address its log lines carry and debug mode prints; registry.opentofu.org/seedcompute/compute for OpenTofu")
	flag.Parse()

	version, commit, _ := strings.Cut(build, "+")
	if showVersion {
		fmt.Println(versionLine(version, commit))
		return
	}
	stopCPUProfile := func() {}
	if debug {
		writeHeapProfiles(os.Getenv(heapProfileEnv))
		stopCPUProfile = startCPUProfile(os.Getenv(cpuProfileEnv))
	}
	// providerserver.Serve, with the framework's server wrapped (releasing).
	var opts []tf6server.ServeOpt
	if debug {
		opts = append(opts, tf6server.WithManagedDebug())
	}
	newProvider := provider.New(version, provider.WithCommit(commit))
	err := tf6server.Serve(address, func() tfprotov6.ProviderServer {
		return releasing(providerserver.NewProtocol6(newProvider())())
	}, opts...)
	stopCPUProfile()
	if err != nil {
		log.Fatal(err.Error())
	}
}
