package acctest

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"
)

// The variables terraform-plugin-testing itself reads: the CLI binary to
// drive and the registry host the provider's address is under. Every test
// that runs the CLI, through terraform-plugin-testing or through CLI, takes
// both from here, so one run drives one binary under one address.
const (
	TerraformPathEnv = "TF_ACC_TERRAFORM_PATH"
	ProviderHostEnv  = "TF_ACC_PROVIDER_HOST"
)

// The hosts that `source = "seedcompute/compute"` means: Terraform reads a
// source without a host as registry.terraform.io, OpenTofu as
// registry.opentofu.org, and each installs (and looks a dev override or a
// reattached provider up) only under its own.
const (
	TerraformHost = "registry.terraform.io"
	OpenTofuHost  = "registry.opentofu.org"
)

// ProviderSource is the provider's address without its host, as
// configurations write it.
const ProviderSource = "seedcompute/compute"

// Binary is the CLI the tests drive: TF_ACC_TERRAFORM_PATH, else the
// terraform on PATH. Nothing is ever downloaded.
func Binary() (string, error) {
	if p := os.Getenv(TerraformPathEnv); p != "" {
		return p, nil
	}
	p, err := exec.LookPath("terraform")
	if err != nil {
		return "", fmt.Errorf("the terraform binary is not on PATH; install Terraform 1.11 or later, or set %s to a terraform or tofu binary (tests never download one)", TerraformPathEnv)
	}
	return p, nil
}

// ProviderHost is the registry host of the provider's address for this run:
// TF_ACC_PROVIDER_HOST, else registry.opentofu.org when the binary is
// OpenTofu, else registry.terraform.io. Setup also writes it into the
// variable (SetProviderHostFor), which terraform-plugin-testing reads.
func ProviderHost() string {
	if h := os.Getenv(ProviderHostEnv); h != "" {
		return h
	}
	if OpenTofu() {
		return OpenTofuHost
	}
	return TerraformHost
}

// ProviderAddress is the provider's full address for this run's binary.
func ProviderAddress() string { return ProviderHost() + "/" + ProviderSource }

// SetProviderHostFor sets TF_ACC_PROVIDER_HOST to OpenTofu's host when bin
// is OpenTofu and the variable is unset, so that TF_ACC_TERRAFORM_PATH alone
// is enough to run the suite under tofu; an explicit host always wins.
func SetProviderHostFor(bin string) error {
	if os.Getenv(ProviderHostEnv) != "" {
		return nil
	}
	tofu, err := IsOpenTofu(bin)
	if err != nil {
		return err
	}
	if tofu {
		os.Setenv(ProviderHostEnv, OpenTofuHost)
	}
	return nil
}

var versionLines sync.Map // binary path -> version line

// IsOpenTofu reports whether bin is OpenTofu. `version -json` cannot tell
// (OpenTofu keeps the key terraform_version), so it reads the line of
// `version` that names the program, "OpenTofu v1.12.6" or "Terraform v1.15.9".
func IsOpenTofu(bin string) (bool, error) {
	line, err := VersionLine(bin)
	return strings.HasPrefix(line, "OpenTofu"), err
}

// VersionLine is the line of `bin version` that names the program and its
// version, such as "Terraform v1.11.4".
func VersionLine(bin string) (string, error) {
	if v, ok := versionLines.Load(bin); ok {
		if line, ok := v.(string); ok {
			return line, nil
		}
	}
	cmd := exec.Command(bin, "version")
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s version: %v; set %s to a working terraform or tofu binary", bin, err, TerraformPathEnv)
	}
	// OpenTofu prints a warning about a missing CLI configuration on
	// stdout, before the version.
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "OpenTofu v") || strings.HasPrefix(line, "Terraform v") {
			versionLines.Store(bin, line)
			return line, nil
		}
	}
	return "", fmt.Errorf("%s version printed no \"Terraform v…\" or \"OpenTofu v…\" line: %q; set %s to a terraform or tofu binary", bin, out, TerraformPathEnv)
}

// OpenTofu reports whether the binary the tests drive is OpenTofu, for the
// few tests whose expectation depends on it.
func OpenTofu() bool {
	bin, err := Binary()
	if err != nil {
		return false
	}
	tofu, _ := IsOpenTofu(bin)
	return tofu
}

// SkipUnderOpenTofu skips t when the tests drive OpenTofu, naming its
// version and why: for what OpenTofu cannot do that the test needs.
func SkipUnderOpenTofu(t testing.TB, why string) {
	t.Helper()
	if !OpenTofu() {
		return
	}
	bin, _ := Binary()
	line, _ := VersionLine(bin)
	t.Skipf("%s (%s): %s", line, bin, why)
}
